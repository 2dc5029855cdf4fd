/* global document, window */
/*
 * The leaderboard page's behaviour: more rows on a button or on scrolling, the viewer's row pinned
 * while it is out of view, keyboard use of the close control, and the season switcher closing as a
 * menu would (its links work without this script), and the first rows kept current from the
 * leaderboard's live stream (polling every 10 s where there is none). Served as a file so the page's
 * Content-Security-Policy can forbid inline scripts. Names come from players: rows are built with
 * textContent only, never innerHTML.
 */
(function () {
  'use strict';

  var board = document.getElementById('board');
  if (!board) return;
  var data = board.dataset;
  var view = data.view;
  var list = document.getElementById('entries');
  var more = document.getElementById('more');
  var status = document.getElementById('status');
  var pinned = document.getElementById('pinned');
  var close = document.getElementById('close');
  var seasons = document.getElementById('seasons');
  // The same formatting as the server's, so loaded rows read like the first ones.
  var format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
  // The board's tiebreaker columns (names of a-z, 0-9 and _), shown after the score.
  var columns = data.tiebreakers ? data.tiebreakers.split(',') : [];
  var next = Number(data.next);
  var total = Number(data.total);
  var loading = false;
  var seen = new Set();
  if (list)
    Array.prototype.forEach.call(list.children, function (li) {
      seen.add(li.dataset.id);
    });

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function initial(name) {
    var first = Array.from(name.trim())[0];
    return first ? first.toUpperCase() : '?';
  }

  /** How far a row moved since the latest daily snapshot (page-view.ts moveHtml); null when it did not. */
  function moveFor(change) {
    if (!change) return null;
    var up = change > 0;
    var places = Math.abs(change);
    var move = el('span', 'move ' + (up ? 'up' : 'down'));
    move.title = (up ? 'Up ' : 'Down ') + places + ' since the last daily ranking';
    var arrow = el('span', '', up ? '\u25B2' : '\u25BC');
    arrow.setAttribute('aria-hidden', 'true');
    move.append(
      arrow,
      format.format(places),
      el('span', 'sr-only', ' ' + (places === 1 ? 'place' : 'places') + ' ' + (up ? 'up' : 'down')),
    );
    return move;
  }

  /** The same structure the server renders (page-view.ts rowHtml). */
  function rowFor(entry) {
    var clans = view === 'clans';
    var id = clans ? entry.clan_id : entry.player_id;
    var name = clans ? entry.name : entry.display_name;
    var li = el('li', 'row');
    li.dataset.id = id;
    if (entry.is_viewer) {
      li.classList.add('me');
      li.setAttribute('aria-current', 'true');
    }
    if (entry.rank <= 3) li.classList.add('top', 'top-' + entry.rank);
    li.append(el('span', 'rank', String(entry.rank)));
    if (clans) {
      var badge = el('span', 'avatar badge', initial(name));
      badge.setAttribute('aria-hidden', 'true');
      li.append(badge);
    } else {
      var img = el('img', 'avatar');
      img.src = data.base + '/api/v1/users/' + encodeURIComponent(id) + '/avatar.png?size=80';
      img.alt = '';
      img.width = 40;
      img.height = 40;
      li.append(img);
    }
    var who = el('span', 'who');
    who.append(el('span', 'name', name));
    if (entry.is_viewer) who.append(el('span', 'you', clans ? 'Your clan' : 'You'));
    var move = moveFor(entry.rank_change);
    if (move) who.append(move);
    if (clans) {
      var count = entry.member_count;
      who.append(el('span', 'sub', format.format(count) + (count === 1 ? ' member' : ' members')));
    }
    li.append(who, el('span', 'score', format.format(entry.score)));
    if (entry.tiebreakers && entry.tiebreakers.length > 0) {
      var cells = el('span', 'tbs');
      entry.tiebreakers.forEach(function (value, i) {
        var cell = el('span', 'tb');
        cell.append(el('span', 'tb-name', columns[i] || ''), ' ' + format.format(value));
        cells.append(cell);
      });
      li.append(cells);
    }
    return li;
  }

  // The pinned row shows while the viewer's row in the list is out of view (or not loaded yet).
  // The margins leave out the sticky header and the pinned bar, which would cover the row.
  var viewerObserver = null;
  function watchViewer(row) {
    if (!pinned || !('IntersectionObserver' in window)) return;
    if (viewerObserver) viewerObserver.disconnect();
    viewerObserver = new window.IntersectionObserver(
      function (records) {
        pinned.hidden = records[records.length - 1].isIntersecting;
      },
      { rootMargin: '-64px 0px -96px 0px' },
    );
    viewerObserver.observe(row);
  }

  // Scrolling near the end loads the next rows, as the button does.
  var endObserver =
    more && 'IntersectionObserver' in window
      ? new window.IntersectionObserver(
          function (records) {
            if (records[records.length - 1].isIntersecting) loadMore();
          },
          { rootMargin: '0px 0px 400px 0px' },
        )
      : null;

  function settle() {
    loading = false;
    more.disabled = false;
    more.textContent = 'Show more';
    more.hidden = next >= total;
    if (endObserver && !more.hidden) {
      // Observing again reports the current state, so a screen still not full keeps loading.
      endObserver.unobserve(more);
      endObserver.observe(more);
    }
  }

  function loadMore() {
    if (loading || next >= total) return;
    loading = true;
    more.disabled = true;
    more.textContent = 'Loading…';
    status.textContent = '';
    var url = new window.URL(data.entries, window.location.href);
    var query = new window.URLSearchParams({ token: data.token, view: view, offset: String(next), limit: data.limit });
    // A page of an asked season loads more of that same season, even once a reset has moved on.
    if (data.season) query.set('season', data.season);
    url.search = query.toString();
    window
      .fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.json();
      })
      .then(function (page) {
        page.entries.forEach(function (entry) {
          var row = rowFor(entry);
          // Scores move between requests: an entry already shown is not shown twice.
          if (seen.has(row.dataset.id)) return;
          seen.add(row.dataset.id);
          list.append(row);
          if (entry.is_viewer) watchViewer(row);
        });
        next = page.offset + page.limit;
        total = page.total;
        settle();
      })
      .catch(function () {
        status.textContent = 'Could not load more entries. Please try again.';
        settle();
      });
  }

  if (list) {
    var mine = list.querySelector('.me');
    if (mine) watchViewer(mine);
  }

  // Live: the first rows become the stream's entries; rows loaded below stay, less those that moved up.
  var liveCount = Number(data.limit);
  /** Whether the first rows already show these entries (the stream's first event usually does), tiebreakers included. */
  function shows(entries) {
    var rows = list.children;
    if (Math.min(rows.length, liveCount) !== entries.length) return false;
    return entries.every(function (entry, i) {
      var li = rows[i];
      var cells = li.querySelectorAll('.tb');
      var values = entry.tiebreakers || [];
      return (
        li.dataset.id === entry.player_id &&
        li.querySelector('.rank').textContent === String(entry.rank) &&
        li.querySelector('.score').textContent === format.format(entry.score) &&
        moveText(li) === moveText(moveFor(entry.rank_change)) &&
        cells.length === values.length &&
        values.every(function (value, k) {
          return cells[k].textContent === (columns[k] || '') + ' ' + format.format(value);
        })
      );
    });
  }
  function moveText(node) {
    var move = node && (node.classList.contains('move') ? node : node.querySelector('.move'));
    return move ? move.textContent : '';
  }
  function showTop(page) {
    if (!list) {
      // The first score on an empty board: the page with its list is rendered by the server.
      if (page.entries.length > 0) window.location.reload();
      return;
    }
    if (shows(page.entries)) return;
    var ids = new Set(
      page.entries.map(function (entry) {
        return entry.player_id;
      }),
    );
    Array.prototype.slice.call(list.children).forEach(function (li, i) {
      if (i < liveCount || ids.has(li.dataset.id)) {
        seen.delete(li.dataset.id);
        li.remove();
      }
    });
    var rows = document.createDocumentFragment();
    page.entries.forEach(function (entry) {
      entry.is_viewer = entry.player_id === data.viewer;
      var row = rowFor(entry);
      seen.add(row.dataset.id);
      rows.append(row);
      if (entry.is_viewer) watchViewer(row);
    });
    list.prepend(rows);
    total = page.total;
    var meta = document.querySelector('.bar .meta');
    if (meta) meta.textContent = format.format(total) + (total === 1 ? ' player' : ' players');
  }

  var polling = null;
  function poll() {
    if (polling) return;
    polling = window.setInterval(function () {
      var url = new window.URL(data.entries, window.location.href);
      url.search = new window.URLSearchParams({ token: data.token, view: view, offset: '0', limit: data.limit }).toString();
      window
        .fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then(function (response) {
          return response.ok ? response.json() : null;
        })
        .then(function (page) {
          if (page) showTop(page);
        })
        .catch(function () {});
    }, 10000);
  }

  if (data.live) {
    if ('EventSource' in window) {
      var stream = new window.EventSource(data.live);
      stream.addEventListener('top', function (event) {
        showTop(JSON.parse(event.data));
      });
      // A refused stream (too many open, a server at its cap) is not retried by the browser: poll instead.
      stream.addEventListener('error', function () {
        if (stream.readyState === window.EventSource.CLOSED) poll();
      });
    } else {
      poll();
    }
  }
  if (more) {
    more.addEventListener('click', loadMore);
    if (endObserver) endObserver.observe(more);
  }
  // The season list closes on Escape (back to its button) and on a click or focus elsewhere.
  if (seasons) {
    var summary = seasons.querySelector('summary');
    seasons.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && seasons.open) {
        seasons.open = false;
        summary.focus();
      }
    });
    ['click', 'focusin'].forEach(function (type) {
      document.addEventListener(type, function (event) {
        if (seasons.open && !seasons.contains(event.target)) seasons.open = false;
      });
    });
  }
  // The close control is a link dressed as a button: let Space press it, as it would a button.
  if (close) {
    close.addEventListener('keydown', function (event) {
      if (event.key === ' ') {
        event.preventDefault();
        close.click();
      }
    });
  }
})();
