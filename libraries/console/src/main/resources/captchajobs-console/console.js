// CaptchaJobs console overview: refreshes the figures every 2 s from /console/api/overview and
// draws the two charts as SVG. No library, no build step.
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var REFRESH_MS = 2000;

  function text(id, value) {
    var el = document.getElementById(id);
    if (el) { el.textContent = value; }
  }

  function seconds(s) { return s === null || s === undefined ? '\u2013' : s.toFixed(1) + ' s'; }

  function el(name, attrs, content) {
    var e = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (content !== undefined) { e.textContent = content; }
    return e;
  }

  function clear(svg) {
    Array.prototype.slice.call(svg.childNodes).forEach(function (n) {
      if (n.nodeName !== 'title') { svg.removeChild(n); }
    });
  }

  function axes(svg, w, h, pad, max, from, to) {
    svg.appendChild(el('line', { x1: pad, y1: h - pad, x2: w - 8, y2: h - pad, stroke: '#5f6368' }));
    svg.appendChild(el('line', { x1: pad, y1: 8, x2: pad, y2: h - pad, stroke: '#5f6368' }));
    svg.appendChild(el('text', { x: pad - 6, y: 16, 'text-anchor': 'end', 'font-size': 12, fill: '#1a1a1a' }, String(max)));
    svg.appendChild(el('text', { x: pad - 6, y: h - pad, 'text-anchor': 'end', 'font-size': 12, fill: '#1a1a1a' }, '0'));
    svg.appendChild(el('text', { x: pad, y: h - 6, 'font-size': 12, fill: '#1a1a1a' }, from));
    svg.appendChild(el('text', { x: w - 8, y: h - 6, 'text-anchor': 'end', 'font-size': 12, fill: '#1a1a1a' }, to));
  }

  function hhmm(ms) { return new Date(ms).toISOString().substring(11, 16) + ' UTC'; }

  function drawGauges(samples) {
    var svg = document.querySelector('#chart svg');
    if (!svg) { return; }
    clear(svg);
    var w = 720, h = 200, pad = 36;
    var now = samples.length ? samples[samples.length - 1][0] : Date.now();
    var from = now - 15 * 60 * 1000;
    var max = 1;
    samples.forEach(function (s) { max = Math.max(max, s[1], s[2], s[3] || 0); });
    max = Math.ceil(max * 1.1);
    axes(svg, w, h, pad, max, hhmm(from), hhmm(now));
    function x(t) { return pad + (w - 8 - pad) * (t - from) / (now - from || 1); }
    function y(v) { return h - pad - (h - pad - 8) * v / max; }
    [[1, '#0b57d0', ''], [2, '#1a1a1a', '6 4'], [3, '#b45309', '2 3']].forEach(function (spec) {
      var pts = samples.filter(function (s) { return s[spec[0]] !== null; })
        .map(function (s) { return x(s[0]).toFixed(1) + ',' + y(s[spec[0]]).toFixed(1); });
      if (pts.length) {
        svg.appendChild(el('polyline', { points: pts.join(' '), fill: 'none', stroke: spec[1],
          'stroke-width': 2, 'stroke-dasharray': spec[2] }));
      }
    });
  }

  function drawAnswers(answers, atMs) {
    var svg = document.querySelector('#answers-chart svg');
    if (!svg) { return; }
    clear(svg);
    var w = 720, h = 140, pad = 36;
    var end = Math.floor(atMs / 60000) * 60000;
    var start = end - 15 * 60000;
    var max = 1;
    answers.forEach(function (a) { max = Math.max(max, a[1] + a[2]); });
    axes(svg, w, h, pad, max, hhmm(start), hhmm(end));
    var slot = (w - 8 - pad) / 16;
    answers.forEach(function (a) {
      var i = Math.round((a[0] - start) / 60000);
      if (i < 0 || i > 15) { return; }
      var x = pad + i * slot + 2;
      var hp = (h - pad - 8) * a[1] / max, hq = (h - pad - 8) * a[2] / max;
      var g = el('g', {});
      g.appendChild(el('title', {}, hhmm(a[0]) + ': ' + a[1] + ' by push, ' + a[2] + ' by poll'));
      g.appendChild(el('rect', { x: x, y: h - pad - hp, width: slot - 4, height: hp, fill: '#0f7b3f' }));
      g.appendChild(el('rect', { x: x, y: h - pad - hp - hq, width: slot - 4, height: hq, fill: '#6b3fa0' }));
      svg.appendChild(g);
    });
  }

  // this page is watched: the workers read the provider's working threads meanwhile. A POST from
  // this script only (the server checks its origin); no GET changes anything.
  function watch() {
    return fetch(window.location.origin + '/console/api/watch', { method: 'POST', credentials: 'same-origin', cache: 'no-store' })
      .catch(function () { /* the figures still refresh */ });
  }

  function refresh() {
    // from the origin: a page opened at a URL with credentials in it cannot fetch relative URLs
    watch()
      .then(function () { return fetch(window.location.origin + '/console/api/overview', { credentials: 'same-origin', cache: 'no-store' }); })
      .then(function (r) { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.json(); })
      .then(function (o) {
        text('in-flight', String(o.inFlight));
        text('capacity', String(o.capacity));
        text('working', o.working === null ? '\u2013' : String(o.working));
        text('waiting', String(o.waiting));
        text('p50', seconds(o.p50));
        text('p95', seconds(o.p95));
        text('push-rate', String(o.pushLastMinute));
        text('poll-rate', String(o.pollLastMinute));
        // server-escaped fragments: tables and their Close breaker and Set budget forms; a table
        // holding the focus (a budget being typed, a button about to be pressed) is left as it is
        var focused = document.activeElement;
        [['breakers', o.breakersHtml], ['providers', o.providersHtml]].forEach(function (f) {
          var box = document.getElementById(f[0]);
          if (!(focused && box.contains(focused))) { box.innerHTML = f[1]; }
        });
        document.getElementById('failures').innerHTML = o.failuresHtml;
        document.getElementById('reports').innerHTML = o.reportsHtml;
        drawGauges(o.samples);
        drawAnswers(o.answers, Date.parse(o.at));
        text('updated', 'as of ' + o.at.replace('T', ' ').replace('Z', ' UTC'));
        document.body.setAttribute('data-refreshed', o.at);
      })
      .catch(function (e) { text('updated', 'refresh failed: ' + e.message); })
      .finally(function () { setTimeout(refresh, REFRESH_MS); });
  }

  refresh();
})();
