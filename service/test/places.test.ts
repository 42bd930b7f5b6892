import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTestService, type Json } from './helpers.ts';

const svc = useTestService();

const firstRender = (key = 'wk_demo_map') => svc.firstRender(key, 'map');

describe('GET /widget?type=map', () => {
  test('lists the places with coordinates and their next classes; online is on no map', async () => {
    const { status, body } = await firstRender();
    assert.equal(status, 200);
    assert.deepEqual(
      body.places.map((p: Json) => [p.id, p.lat !== null, p.classes.length]),
      [
        ['pl_berlin', true, 2],
        ['pl_hamburg', true, 2],
        ['pl_vienna', true, 3],
        ['pl_london', true, 2],
        ['pl_online', false, 2],
      ],
    );
    const [berlin] = body.places;
    assert.equal(berlin.address, 'Torstraße 1, 10119 Berlin');
    assert.deepEqual(
      berlin.classes.map((c: Json) => [c.id, c.course.title, c.status]),
      [
        ['cls_open_1', 'Open day: meet the trainers', 'open'],
        ['cls_web_1', 'Web accessibility in practice', 'open'],
      ],
    );
    assert.ok(berlin.classes[0].starts_at < berlin.classes[1].starts_at, 'by start');
  });

  test('past classes are not listed, and a place shows at most three', async () => {
    const { body } = await firstRender();
    const all = body.places.flatMap((p: Json) => p.classes.map((c: Json) => c.id));
    assert.ok(!all.includes('cls_web_past'));
    assert.ok(body.places.every((p: Json) => p.classes.length <= 3));
  });

  test('names the tiles: the key’s, or OpenStreetMap’s by default', async () => {
    assert.deepEqual((await firstRender()).body.widget.options.tiles, {
      url: 'dev/tiles/{z}/{x}/{y}.png',
      attribution: 'Plain tiles of the reference service',
    });
    assert.deepEqual((await firstRender('wk_demo_map_osm')).body.widget.options.tiles, {
      url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap contributors',
    });
  });

  test('in development, the service serves a plain tile for any address', async () => {
    const tile = await svc.fetch('/dev/tiles/5/17/10.png');
    assert.equal(tile.status, 200);
    assert.equal(tile.headers.get('content-type'), 'image/png');
    assert.equal(tile.headers.get('access-control-allow-origin'), '*');
  });
});
