// The demo page: a snippet builder with a live preview, the host page's event log, and the seeded
// credentials. Plain JavaScript served as is; it runs under the service's strict CSP.
const $ = (selector) => document.querySelector(selector);
const origin = location.origin;

const text = (tag, content, attributes = {}) => {
  const node = document.createElement(tag);
  node.textContent = content;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
};

const seed = await fetch('/dev/seed').then(
  (r) => (r.ok ? r.json() : null),
  () => null,
);

// --- Snippet builder -------------------------------------------------------------------------
const versions = seed?.widget_types ?? {};
const keyFor = (type) => seed?.widget_keys.find((k) => k.type === type && k.key === `wk_demo_${type}`)?.key ?? '';

for (const [type, version] of Object.entries(versions)) {
  $('#type').append(text('option', `${type} (${version})`, { value: type }));
}
$('#key').value = keyFor('registration');

const courses = await fetch(`/widget-api/v1/widget?key=${encodeURIComponent(keyFor('registration'))}&type=registration`)
  .then((r) => (r.ok ? r.json() : { courses: [] }))
  .catch(() => ({ courses: [] }));
for (const course of courses.courses) $('#course').append(text('option', course.title, { value: course.id }));

const options = () => {
  const type = $('#type').value;
  const attributes = { 'data-service-widget': type, 'data-service-id': $('#key').value.trim() };
  if ($('#locale').value) attributes['data-service-locale'] = $('#locale').value;
  if (type === 'registration' && $('#course').value) attributes['data-service-course'] = $('#course').value;
  return { type, version: versions[type], attributes };
};

const render = () => {
  const { type, version, attributes } = options();
  $('#course-field').hidden = type !== 'registration';
  const attrs = Object.entries(attributes)
    .map(([name, value]) => `${name}="${value.replace(/"/g, '&quot;')}"`)
    .join(' ');
  $('#snippet-code').textContent = `<div ${attrs}></div>\n<script async src="${origin}/widgets/${version}/loader.js"></script>`;
  $('#version-note').textContent =
    `${type} belongs to the ${version} loader. On your own site, keep both lines; the script may also stand in <head>.`;
};

const preview = () => {
  const { attributes } = options();
  const div = document.createElement('div');
  for (const [name, value] of Object.entries(attributes)) div.setAttribute(name, value);
  // The loaders on this page find the new div by themselves, as they would in a single-page app.
  $('#preview').replaceChildren(div);
};

$('#type').addEventListener('change', () => {
  $('#key').value = keyFor($('#type').value);
  render();
});
for (const field of ['#key', '#locale', '#course']) $(field).addEventListener('input', render);
$('#builder').addEventListener('submit', (event) => {
  event.preventDefault();
  render();
  preview();
});
$('#copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText($('#snippet-code').textContent);
    $('#copied').textContent = 'Copied.';
  } catch {
    $('#copied').textContent = 'Copying was refused: select the snippet and copy it by hand.';
  }
});
render();
preview();

// --- Event log ---------------------------------------------------------------------------------
const logged = [
  'service-widget-ready',
  'service-widget-error',
  'service-registration-created',
  'service-registration-cancelled',
  'service-profile-login',
  'service-profile-logout',
  'service-contact-sent',
];
for (const name of logged) {
  document.addEventListener(name, (event) => {
    const item = document.createElement('li');
    item.append(text('strong', name), ' ', text('code', JSON.stringify(event.detail)));
    $('#event-log').prepend(item);
  });
}

// --- Seeded credentials ------------------------------------------------------------------------
const table = (caption, rows, columns) => {
  const node = document.createElement('table');
  node.append(text('caption', caption));
  const head = node.createTHead().insertRow();
  for (const column of columns) head.append(text('th', column, { scope: 'col' }));
  const body = node.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const column of columns) {
      const value = row[column];
      tr.insertCell().textContent = Array.isArray(value) ? value.join(', ') : String(value ?? '');
    }
  }
  return node;
};

if (seed) {
  $('#seed-tables').replaceChildren(
    table('REST API', [seed.rest], ['api_key', 'client_secret']),
    table('Company users (REST API)', seed.users, ['email', 'role', 'company_id']),
    table('Participants (profile widget)', seed.participants, ['email', 'company_id']),
    table('Widget keys', seed.widget_keys, ['key', 'type', 'company_id', 'origins', 'note']),
  );
} else {
  $('#seed-tables').replaceChildren(text('p', 'The seed is only shown in development mode (npm start).'));
}
