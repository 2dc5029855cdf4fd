# The three core calls for Godot 3. Add this node to the scene, set its fields, then call
# var res = yield(client.sign_up(device_id), "completed") and so on.
extends Node

var base_url = "http://localhost:3000"  # BASE_URL: the API
var app_url = "http://localhost:3000"   # APP_URL: the web page (often the same)
var publishable_key = ""
var token = ""
var player_id = ""

# One HTTP call: {"code": status (0 when unreachable), "body": text}.
func _call(method, url, headers, body = ""):
	var http = HTTPRequest.new()
	add_child(http)
	if http.request(url, headers, true, method, body) != OK:
		yield(get_tree(), "idle_frame")  # stay a coroutine, so callers can always yield
		http.queue_free()
		return {"code": 0, "body": ""}
	var done = yield(http, "request_completed")  # [result, code, headers, body]
	http.queue_free()
	return {"code": done[1], "body": done[3].get_string_from_utf8()}

# 1. Sign up (the same device_id is the same player, so keep it secret) and read the
#    player id from the token: base64 of a JSON object whose user_id is the player id.
func sign_up(device_id):
	var res = yield(_call(HTTPClient.METHOD_POST, base_url + "/api/v1/signup/anonymous",
		["Publishable-Key: " + publishable_key, "Content-Type: application/json"],
		to_json({"device_id": device_id})), "completed")
	if res.code == 200 or res.code == 201:
		token = parse_json(res.body).token
		player_id = parse_json(Marshalls.base64_to_utf8(token)).user_id
	return res

# 2. Report a score; the answer holds best_score, rank and total.
func report_score(leaderboard_id, score):
	var res = yield(_call(HTTPClient.METHOD_POST,
		base_url + "/api/v1/client/leaderboards/" + leaderboard_id.http_escape() + "/report_score",
		["Publishable-Key: " + publishable_key, "Anonymous-Authorization: " + token,
			"Content-Type: application/json"],
		to_json({"score": score})), "completed")
	if res.code == 200:
		res.result = parse_json(res.body)
	return res

# 3. The page to open in a webview plugin; close the webview when it navigates to a
#    URL for which is_close_request() is true (the page's Close button does that).
func page_url(leaderboard_id):
	return app_url + "/leaderboards/" + leaderboard_id.http_escape() + "?token=" + token.http_escape()

func is_close_request(url):
	return "sdk_action=close_window" in url
