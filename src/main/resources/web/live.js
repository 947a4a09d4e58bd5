// Live page: renders the /api/state snapshot and re-renders on every SSE "state" event.
'use strict';

const charts = new Map();

// Builds the DOM from text nodes (append) and attribute values (setAttribute), never from HTML
// strings: experiment ids, suites, categories, models and worker ids come from task messages.
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function pct(n, d) { return d > 0 ? Math.round(1000 * n / d) / 10 : 0; }

// One configuration (a model on a suite): its best seed's pairs per category, in BREC's order,
// beside BREC's Table 2 where the suite is BREC and the paper ran the model.
function configurationTable(c) {
  const cell = r => {
    const p = pct(r.reliably_distinguished, r.pairs);
    const td = el('td', { class: p >= 90 ? 'hi' : p >= 40 ? 'mid' : 'lo' }, `${r.reliably_distinguished}/${r.pairs}`);
    if (r.reliability_failures > 0) td.append(el('div', { class: 'warn' }, `${r.reliability_failures} unreliable`));
    return td;
  };
  const paper = r => el('td', {}, r.paper == null ? '–' : `${r.paper}/${r.paper_pairs}`);
  const head = el('tr', {}, el('th', {}, 'category'), el('th', {}, `seed ${c.best_seed}`), el('th', {}, 'paper'));
  const body = [...c.rows, c.total].map(r => el('tr', { 'data-category': r.category },
    el('td', {}, r.category), cell(r), paper(r)));
  const seeds = `${c.seeds} seed${c.seeds === 1 ? '' : 's'}, best ${c.best_seed}` +
    (c.unreliable_seeds.length ? ` · reliability failed in seeds ${c.unreliable_seeds.join(', ')}` : '');
  return el('div', { class: 'configuration', 'data-model': c.model },
    el('h4', {}, `${c.model} · ${c.suite}`), el('div', { class: 'meta' }, seeds),
    el('table', { class: 'accuracy' }, el('thead', {}, head), el('tbody', {}, ...body)));
}

// Across models: each configuration's best seed, most reliably distinguished pairs first.
function leaderboard(exp) {
  const ranked = [...exp.configurations].sort((a, b) => b.total.reliably_distinguished - a.total.reliably_distinguished);
  const head = el('tr', {}, ...['model', 'suite', 'best seed', 'reliably distinguished', 'paper'].map(h => el('th', {}, h)));
  const body = ranked.map(c => el('tr', { 'data-model': c.model }, el('td', {}, c.model), el('td', {}, c.suite),
    el('td', {}, String(c.best_seed)), el('td', {}, `${c.total.reliably_distinguished}/${c.total.pairs}`),
    el('td', {}, c.total.paper == null ? '–' : String(c.total.paper))));
  return el('div', {}, el('h4', {}, 'Leaderboard'),
    el('table', { class: 'leaderboard' }, el('thead', {}, head), el('tbody', {}, ...body)));
}

// Running train tasks: each one's latest epoch (from expresso.progress), gone when its result arrives.
function trainingTable(exp) {
  const num = v => (Number.isFinite(v) ? (Math.abs(v) < 0.01 && v !== 0 ? v.toExponential(2) : v.toFixed(3)) : '–');
  const head = el('tr', {}, ...['model', 'pattern', 'dataset', 'seed', 'epoch', 'train ℓ1', 'validation ℓ1',
    'learning rate', 'worker'].map(h => el('th', {}, h)));
  const body = exp.training.map(t => el('tr', { 'data-task': t.task },
    el('td', {}, t.model), el('td', {}, t.pattern), el('td', {}, t.dataset), el('td', {}, String(t.seed)),
    el('td', {}, `${t.epoch} / ${t.max_epochs}`), el('td', {}, num(t.train_l1)), el('td', {}, num(t.validation_l1)),
    el('td', {}, t.learning_rate.toExponential(2)), el('td', {}, t.worker)));
  return el('div', {}, el('h4', {}, 'Training now'),
    el('table', { class: 'training' }, el('thead', {}, head), el('tbody', {}, ...body)));
}

function attackChart(exp, holder) {
  const canvas = el('canvas');
  holder.append(el('div', { class: 'chart' }, canvas));
  // x: the budget as a fraction of the mean edge count (the report's axis), flips for older results
  const xOf = a => (a.fractions.length ? a.fractions : a.budgets);
  const byFraction = exp.attacks.every(a => a.fractions.length);
  const xs = [...new Set(exp.attacks.flatMap(xOf))].sort((x, y) => x - y);
  const datasets = exp.attacks.map(a => ({
    label: `${a.model} · ${a.pattern} · ${a.space}` + (a.nr == null ? '' : ` · NR ${a.nr.toFixed(3)}`),
    data: xs.map(x => { const i = xOf(a).indexOf(x); return i < 0 ? null : a.rates[i]; }),
    spanGaps: true, tension: .2,
  }));
  const budgets = byFraction ? xs.map(x => `${+(x * 100).toFixed(2)}%`) : xs;
  if (typeof Chart === 'undefined') return;
  const old = charts.get(exp.id);
  if (old) old.destroy();
  charts.set(exp.id, new Chart(canvas, {
    type: 'line',
    data: { labels: budgets, datasets },
    options: { animation: false, maintainAspectRatio: false,
      scales: { x: { title: { display: true, text: byFraction ? 'budget (share of the mean edge count)' : 'budget (edge flips)' } },
                y: { min: 0, max: 1, title: { display: true, text: 'success rate' } } } },
  }));
}

function render(state) {
  const box = document.getElementById('experiments');
  document.getElementById('no-experiments').hidden = state.experiments.length > 0;
  box.replaceChildren(...state.experiments.map(exp => {
    const card = el('div', { class: 'experiment', 'data-experiment': exp.id });
    const kinds = Object.entries(exp.kinds).map(([k, n]) => `${k} ${n}`).join(', ');
    const total = exp.expected ? ` / ${exp.expected}` : '';
    card.append(el('h3', {}, exp.id),
      el('div', { class: 'meta' },
        el('span', { class: 'results' }, `${exp.results}${total} results`),
        ` · ${exp.errors} errors · ${kinds}`));
    if (exp.expected) {
      const bar = el('div');
      bar.style.width = Math.min(100, pct(exp.results, exp.expected)) + '%';
      card.append(el('div', { class: 'progress' }, bar));
    }
    if (exp.configurations.length > 1) card.append(leaderboard(exp));
    for (const c of exp.configurations) card.append(configurationTable(c));
    if (exp.training && exp.training.length) card.append(trainingTable(exp));
    if (exp.attacks.length) attackChart(exp, card);
    return card;
  }));
  const tbody = document.querySelector('#workers tbody');
  tbody.replaceChildren(...state.workers.map(w => el('tr', {},
    el('td', {}, w.worker), el('td', {}, w.device), el('td', {}, String(w.tasks)),
    el('td', {}, w.busy_seconds.toFixed(2)), el('td', {}, `${w.last_seen_seconds_ago.toFixed(1)} s ago`))));
  document.body.dataset.version = state.version;
}

function connect() {
  const status = document.getElementById('status');
  const source = new EventSource('/events');
  source.addEventListener('state', ev => render(JSON.parse(ev.data)));
  source.onopen = () => { status.textContent = 'live'; status.className = 'status on'; };
  source.onerror = () => { status.textContent = 'reconnecting…'; status.className = 'status off'; };
}

fetch('/api/state').then(r => r.json()).then(render).finally(connect);
