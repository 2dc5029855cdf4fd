/* global document, window, getComputedStyle, uPlot */
// The dashboard's script: every page works without it; it draws the Overview's chart with uPlot.
(function () {
  'use strict';
  var holder = document.getElementById('reports-chart');
  var data = document.getElementById('reports-data');
  if (!holder || !data || typeof uPlot === 'undefined') return;
  var points = JSON.parse(data.textContent);
  var times = points.map(function (p) {
    return p[0];
  });
  var counts = points.map(function (p) {
    return p[1];
  });
  var accent = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#4338ca';
  var muted = getComputedStyle(document.documentElement).getPropertyValue('--muted').trim() || '#555b6e';
  function options(width) {
    return {
      width: width,
      height: 220,
      tzDate: function (ts) {
        return uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');
      },
      legend: { show: false },
      cursor: { show: true },
      scales: {
        y: {
          range: function (u, min, max) {
            return [0, Math.max(5, max)];
          },
        },
      },
      axes: [
        { stroke: muted, grid: { stroke: 'rgba(128,128,128,0.15)' } },
        { stroke: muted, grid: { stroke: 'rgba(128,128,128,0.15)' } },
      ],
      series: [{}, { label: 'Reports', stroke: accent, width: 2, fill: 'rgba(67,56,202,0.12)' }],
    };
  }
  var chart = new uPlot(options(holder.clientWidth), [times, counts], holder);
  window.addEventListener('resize', function () {
    chart.setSize({ width: holder.clientWidth, height: 220 });
  });
})();
