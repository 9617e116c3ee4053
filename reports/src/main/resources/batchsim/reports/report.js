// Hover values and legend toggles for the report's SVG charts. No dependencies, no network.
// Sets data-rendered="true" on <html> once every chart is wired, so a headless check can tell
// that the script ran without errors.
(function () {
  'use strict';
  function pad(n) { return n < 10 ? '0' + n : '' + n; }
  // The same short durations as the Java side (Formats.humanDuration).
  function dur(ms) {
    ms = Math.round(ms);
    if (ms < 0) return '-' + dur(-ms);
    if (ms < 1e3) return ms + 'ms';
    if (ms < 6e4) return Math.floor(ms / 1e3) + '.' + Math.floor(ms % 1e3 / 100) + 's';
    if (ms < 36e5) return Math.floor(ms / 6e4) + 'm' + pad(Math.floor(ms / 1e3) % 60) + 's';
    if (ms < 864e5) return Math.floor(ms / 36e5) + 'h' + pad(Math.floor(ms / 6e4) % 60) + 'm';
    return Math.floor(ms / 864e5) + 'd' + pad(Math.floor(ms / 36e5) % 24) + 'h';
  }
  function fmt(v, f, unit) {
    if (f === 'pct') return (v * 100).toFixed(1) + '%';
    if (f === 'dur' || f === 'time') return dur(v);
    if (f === 'pctl') return 'p' + parseFloat((100 * (1 - Math.pow(10, -v))).toFixed(3));
    var a = Math.abs(v);
    var s = a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
    return s + (unit ? ' ' + unit : '');
  }
  function nums(s) { return s.split(' ').map(Number); }

  function wire(fig) {
    var svg = fig.querySelector('svg');
    var tip = fig.querySelector('.tip');
    var cursor = svg.querySelector('.cursor');
    var dx = nums(svg.dataset.x), dy = nums(svg.dataset.y);
    var xf = svg.dataset.xf, yf = svg.dataset.yf, yu = svg.dataset.yu;
    var width = svg.viewBox.baseVal.width;
    var lines = Array.prototype.map.call(svg.querySelectorAll('polyline[data-name]'), function (el) {
      var xs = [], ys = [];
      el.getAttribute('points').split(' ').forEach(function (p) {
        var i = p.indexOf(',');
        xs.push(+p.slice(0, i));
        ys.push(+p.slice(i + 1));
      });
      return { el: el, name: el.dataset.name, color: el.getAttribute('stroke'), xs: xs, ys: ys };
    });

    fig.querySelectorAll('.legend button').forEach(function (b) {
      b.addEventListener('click', function () {
        var off = b.classList.toggle('off');
        svg.querySelectorAll('[data-s="' + b.dataset.s + '"]').forEach(function (el) {
          el.classList.toggle('hide', off);
        });
      });
    });

    if (!lines.length) return;
    function hide() { tip.hidden = true; cursor.setAttribute('visibility', 'hidden'); }
    svg.addEventListener('mouseleave', hide);
    svg.addEventListener('mousemove', function (e) {
      var m = svg.getScreenCTM();
      if (!m) return;
      var pt = svg.createSVGPoint();
      pt.x = e.clientX; pt.y = e.clientY;
      var p = pt.matrixTransform(m.inverse());
      if (p.x < dx[2] || p.x > dx[3]) { hide(); return; }
      var xv = dx[0] + (p.x - dx[2]) / (dx[3] - dx[2]) * (dx[1] - dx[0]);
      tip.textContent = '';
      var head = document.createElement('div');
      head.className = 'h';
      head.textContent = xf === 'cat' ? svg.dataset.xc.split('|')[Math.round(xv)] || ''
        : (xf === 'time' ? 'at ' : '') + fmt(xv, xf);
      tip.appendChild(head);
      lines.forEach(function (l) {
        if (l.el.classList.contains('hide') || !l.xs.length) return;
        var lo = 0, hi = l.xs.length - 1;
        while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (l.xs[mid] <= p.x) lo = mid; else hi = mid; }
        var i = Math.abs(l.xs[hi] - p.x) < Math.abs(l.xs[lo] - p.x) ? hi : lo;
        var v = dy[0] + (dy[2] - l.ys[i]) / (dy[2] - dy[3]) * (dy[1] - dy[0]);
        var row = document.createElement('div');
        var sw = document.createElement('i');
        sw.className = 'sw';
        sw.style.setProperty('--c', l.color);
        var name = document.createElement('span');
        name.textContent = l.name;
        var val = document.createElement('b');
        val.textContent = fmt(v, yf, yu);
        row.appendChild(sw); row.appendChild(name); row.appendChild(val);
        tip.appendChild(row);
      });
      cursor.setAttribute('x1', p.x); cursor.setAttribute('x2', p.x);
      cursor.setAttribute('visibility', 'visible');
      tip.hidden = false;
      var px = p.x / width * svg.clientWidth;
      var left = px + 14;
      if (left + tip.offsetWidth > svg.clientWidth) left = Math.max(0, px - 14 - tip.offsetWidth);
      tip.style.left = left + 'px';
    });
  }

  var figs = document.querySelectorAll('figure.chart');
  var wired = 0;
  figs.forEach(function (f) { wire(f); wired++; });
  var root = document.documentElement;
  root.setAttribute('data-charts-wired', String(wired));
  if (wired === Number(document.body.dataset.charts)) root.setAttribute('data-rendered', 'true');
})();
