# Runs the three core calls once against a service and prints each result as one JSON line;
# exits 0 when every call answered as expected, 1 otherwise. Settings from the environment:
# LEADERBOARD_BASE_URL, LEADERBOARD_APP_URL, LEADERBOARD_PUBLISHABLE_KEY, LEADERBOARD_ID,
# LEADERBOARD_DEVICE_ID, LEADERBOARD_SCORE.
extends Node

const LeaderboardClient = preload("res://leaderboard_client.gd")

func _ready():
	var client = LeaderboardClient.new()
	add_child(client)
	client.base_url = OS.get_environment("LEADERBOARD_BASE_URL")
	client.app_url = OS.get_environment("LEADERBOARD_APP_URL")
	client.publishable_key = OS.get_environment("LEADERBOARD_PUBLISHABLE_KEY")
	var board = OS.get_environment("LEADERBOARD_ID")
	var ok = true

	var signed = yield(client.sign_up(OS.get_environment("LEADERBOARD_DEVICE_ID")), "completed")
	var answer = parse_json(signed.body) if signed.code != 0 else null
	print(to_json({"step": "sign_up", "code": signed.code, "player_id": client.player_id,
		"answered_player_id": answer.player_id if answer is Dictionary and answer.has("player_id") else null}))
	ok = ok and (signed.code == 200 or signed.code == 201)

	var reported = yield(client.report_score(board, float(OS.get_environment("LEADERBOARD_SCORE"))), "completed")
	print(to_json({"step": "report_score", "code": reported.code, "result": reported.get("result")}))
	ok = ok and reported.code == 200

	# What a webview would load, fetched once; then the Close link the page offers, as a
	# webview would see it in its navigation callback.
	var page = yield(client._call(HTTPClient.METHOD_GET, client.page_url(board), []), "completed")
	var close = RegEx.new()
	close.compile('id="close"[^>]*href="([^"]*)"')
	var found = close.search(page.body)
	var close_href = found.get_string(1).replace("&amp;", "&") if found else ""
	print(to_json({"step": "page", "code": page.code, "viewer_row": 'aria-current="true"' in page.body,
		"close_href": close_href, "closes": client.is_close_request(close_href),
		"page_closes": client.is_close_request(client.page_url(board))}))
	ok = ok and page.code == 200

	OS.exit_code = 0 if ok else 1
	get_tree().quit()
