// Draws a report's charts as inline SVG from the page's own JSON: each div.charts holds a
// script.chart-data and gets its three charts; nothing is fetched. Every label goes in through
// textContent, so no value is ever read as markup. When all charts are drawn, #charts-status says how
// many (data-state="drawn"); an exception is written there instead.
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var W = 1000, H = 300, LEFT = 80, RIGHT = 40, TOP = 40, BOTTOM = 52;
  // The legend: entries per row, and the height each further row adds above the plot.
  var LEGEND_COLUMNS = 6, LEGEND_ROW = 20;
  // One hue per server (A blue, B orange, then green, purple, teal), a shade per round.
  var PALETTE = [['#1f5fa8', '#6b9bd6', '#0d3a6b', '#a9c4e8'], ['#d9651c', '#f2a468', '#8f3d08', '#f7cfab'],
    ['#2e8540', '#74c17f', '#17502a', '#b5e0bb'], ['#7b3fa0', '#b28ad0', '#4a1f66', '#dac6ea'],
    ['#138d90', '#5cc3c5', '#0a5456', '#a8e1e2']];
  var status = document.getElementById('charts-status');

  function el(name, attrs, parent, text) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) {
      node.textContent = text;
    }
    parent.appendChild(node);
    return node;
  }

  /** A round step (1, 2 or 5 times a power of ten) that cuts [0, max] into about `ticks` parts. */
  function niceStep(max, ticks) {
    var raw = max / ticks;
    var magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    var n = raw / magnitude;
    return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * magnitude;
  }

  function format(value, step) {
    var decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    return value.toLocaleString('en-US', {minimumFractionDigits: decimals, maximumFractionDigits: decimals});
  }

  /** The percentile at `nines` on the 1/(1-p) axis: 0 -> 0%, 1 -> 90%, 2 -> 99%, 3 -> 99.9%, ... */
  function percentileLabel(nines) {
    return nines === 0 ? '0%' : (100 - Math.pow(10, 2 - nines)).toFixed(Math.max(0, nines - 2)) + '%';
  }

  /**
   * One line chart: spec.series are {label, color, points: [[x, y or null], ...]}, a null y leaving a
   * gap; spec.xTicks are {value, label}; the y axis runs from 0 to a round value above the highest y.
   */
  function chart(host, spec) {
    var legendRows = Math.max(1, Math.ceil(spec.series.length / LEGEND_COLUMNS));
    var plotTop = TOP + (legendRows - 1) * LEGEND_ROW, height = H + (legendRows - 1) * LEGEND_ROW;
    var svg = el('svg', {viewBox: '0 0 ' + W + ' ' + height, 'class': 'chart', role: 'img'}, host);
    el('title', {}, svg, spec.title);
    var yMax = 0;
    spec.series.forEach(function (s) {
      s.points.forEach(function (p) {
        if (p[1] !== null) {
          yMax = Math.max(yMax, p[1]);
        }
      });
    });
    var step = niceStep(yMax > 0 ? yMax : 1, 5);
    var yTop = Math.max(step, Math.ceil(yMax / step) * step);
    var plotW = W - LEFT - RIGHT, plotH = height - plotTop - BOTTOM;
    function x(v) { return LEFT + v / spec.xMax * plotW; }
    function y(v) { return plotTop + plotH - v / yTop * plotH; }
    for (var v = 0; v <= yTop + step / 2; v += step) {
      el('line', {x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v), 'class': 'grid'}, svg);
      el('text', {x: LEFT - 8, y: y(v) + 4, 'text-anchor': 'end'}, svg, format(v, step));
    }
    spec.xTicks.forEach(function (tick) {
      el('line', {x1: x(tick.value), x2: x(tick.value), y1: plotTop, y2: plotTop + plotH, 'class': 'grid'}, svg);
      el('text', {x: x(tick.value), y: plotTop + plotH + 18, 'text-anchor': 'middle'}, svg, tick.label);
    });
    el('line', {x1: LEFT, x2: LEFT, y1: plotTop, y2: plotTop + plotH, 'class': 'axis'}, svg);
    el('line', {x1: LEFT, x2: W - RIGHT, y1: plotTop + plotH, y2: plotTop + plotH, 'class': 'axis'}, svg);
    el('text', {x: LEFT + plotW / 2, y: height - 8, 'text-anchor': 'middle', 'class': 'label'}, svg, spec.xLabel);
    el('text', {x: 16, y: plotTop + plotH / 2, 'text-anchor': 'middle', 'class': 'label',
      transform: 'rotate(-90 16 ' + (plotTop + plotH / 2) + ')'}, svg, spec.yLabel);
    var drawn = 0;
    spec.series.forEach(function (s, i) {
      var segment = [];
      function flush() {
        if (segment.length > 0) {
          el(segment.length > 1 ? 'polyline' : 'circle', segment.length > 1
            ? {points: segment.join(' '), stroke: s.color, 'class': 'line'}
            : {cx: segment[0].split(',')[0], cy: segment[0].split(',')[1], r: 3, fill: s.color}, svg);
          drawn += segment.length;
        }
        segment = [];
      }
      s.points.forEach(function (p) {
        if (p[1] === null) {
          flush();
        } else {
          segment.push(x(p[0]).toFixed(1) + ',' + y(p[1]).toFixed(1));
        }
      });
      flush();
      var lx = LEFT + 10 + i % LEGEND_COLUMNS * 150, ly = 12 + Math.floor(i / LEGEND_COLUMNS) * LEGEND_ROW;
      el('rect', {x: lx, y: ly, width: 14, height: 14, fill: s.color}, svg);
      el('text', {x: lx + 20, y: ly + 12, 'class': 'legend'}, svg, s.label);
    });
    if (drawn === 0) {
      el('text', {x: LEFT + plotW / 2, y: plotTop + plotH / 2, 'text-anchor': 'middle', 'class': 'label'}, svg,
        spec.empty);
    }
  }

  function secondTicks(seconds) {
    var step = Math.max(1, niceStep(Math.max(seconds, 1), 10));
    var ticks = [];
    for (var s = 0; s <= seconds; s += step) {
      ticks.push({value: s, label: s + ' s'});
    }
    return ticks;
  }

  /** The three charts of one div.charts, from the JSON of its script.chart-data. */
  function drawSet(set, data) {
    var shades = PALETTE.map(function () { return 0; });
    var series = data.series.map(function (s) {
      var group = s.group % PALETTE.length;
      return {label: s.label, color: PALETTE[group][shades[group]++ % PALETTE[group].length], raw: s};
    });
    var nines = 2;
    var seconds = 1;
    series.forEach(function (s) {
      s.raw.percentiles.forEach(function (p) { nines = Math.max(nines, Math.ceil(p[0] - 1e-9)); });
      seconds = Math.max(seconds, s.raw.seconds.length);
    });
    var nineTicks = [];
    for (var n = 0; n <= nines; n++) {
      nineTicks.push({value: n, label: percentileLabel(n)});
    }
    function perSecond(index) {
      return series.map(function (s) {
        return {label: s.label, color: s.color, points: s.raw.seconds.map(function (second, i) {
          return [i + 0.5, second[index]];
        })};
      });
    }
    var empty = 'no whole second in the measured period';
    chart(set.querySelector('.latency-chart'), {title: 'Latency by percentile', xMax: nines, xTicks: nineTicks,
      xLabel: 'percentile', yLabel: 'latency (ms)', empty: 'no latency recorded', series: series.map(function (s) {
        return {label: s.label, color: s.color, points: s.raw.percentiles};
      })});
    chart(set.querySelector('.throughput-chart'), {title: 'Answers per second', xMax: seconds, xTicks: secondTicks(seconds),
      xLabel: 'second of the measured period', yLabel: 'answers per second', empty: empty, series: perSecond(0)});
    chart(set.querySelector('.p99-chart'), {title: 'p99 per second', xMax: seconds, xTicks: secondTicks(seconds),
      xLabel: 'second of the measured period', yLabel: 'p99 (ms)', empty: empty, series: perSecond(1)});
    return 3;
  }

  try {
    var drawn = 0;
    document.querySelectorAll('div.charts').forEach(function (set) {
      drawn += drawSet(set, JSON.parse(set.querySelector('script.chart-data').textContent));
    });
    status.textContent = 'charts drawn: ' + drawn;
    status.setAttribute('data-state', 'drawn');
  } catch (e) {
    status.textContent = 'chart error: ' + e;
    status.setAttribute('data-state', 'error');
  }
})();
