/* global document, window, getComputedStyle, uPlot */
// The dashboard's script: every page works without it (each chart has its numbers as a table); it
// draws the Overview's reports chart and a player's rank history charts with uPlot.
(function () {
  'use strict';
  if (typeof uPlot === 'undefined') return;
  var style = getComputedStyle(document.documentElement);
  var accent = style.getPropertyValue('--accent').trim() || '#4338ca';
  var muted = style.getPropertyValue('--muted').trim() || '#555b6e';
  var HEIGHT = 220;
  var axes = [
    { stroke: muted, grid: { stroke: 'rgba(128,128,128,0.15)' } },
    { stroke: muted, grid: { stroke: 'rgba(128,128,128,0.15)' } },
  ];
  function utc(ts) {
    return uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');
  }
  function draw(holder, options, data) {
    var chart = new uPlot(
      Object.assign({ width: holder.clientWidth, height: HEIGHT, tzDate: utc, legend: { show: false }, axes: axes }, options),
      data,
      holder,
    );
    window.addEventListener('resize', function () {
      chart.setSize({ width: holder.clientWidth, height: HEIGHT });
    });
  }

  var reports = document.getElementById('reports-chart');
  var reportsData = document.getElementById('reports-data');
  if (reports && reportsData) {
    var points = JSON.parse(reportsData.textContent);
    draw(
      reports,
      {
        cursor: { show: true },
        scales: {
          y: {
            range: function (u, min, max) {
              return [0, Math.max(5, max)];
            },
          },
        },
        series: [{}, { label: 'Reports', stroke: accent, width: 2, fill: 'rgba(67,56,202,0.12)' }],
      },
      [
        points.map(function (p) {
          return p[0];
        }),
        points.map(function (p) {
          return p[1];
        }),
      ],
    );
  }

  // Rank history: [day (s), rank, season] a point; rank 1 on top; a season change breaks the line.
  Array.prototype.forEach.call(document.querySelectorAll('[data-rank-history]'), function (holder) {
    var source = document.getElementById(holder.getAttribute('data-rank-history'));
    if (!source) return;
    var days = [];
    var ranks = [];
    JSON.parse(source.textContent).forEach(function (point, i, all) {
      if (i > 0 && all[i - 1][2] !== point[2]) {
        days.push((all[i - 1][0] + point[0]) / 2);
        ranks.push(null);
      }
      days.push(point[0]);
      ranks.push(point[1]);
    });
    draw(
      holder,
      {
        cursor: { show: true },
        scales: {
          x: {
            time: true,
            range: function (u, min, max) {
              return min === max ? [min - 86400, max + 86400] : [min, max];
            },
          },
          y: {
            dir: -1,
            range: function (u, min, max) {
              return [Math.max(1, min - 1), max + 1];
            },
          },
        },
        series: [{}, { label: 'Rank', stroke: accent, width: 2, points: { show: true, size: 6 } }],
      },
      [days, ranks],
    );
  });
})();
