// The dashboard's script: every page works without it; it only draws the Overview's chart.
(function () {
  'use strict';
})();
