/**
 * The rate limiter's memory follows the writers of its longest window, not of a day: a service that
 * saw many distinct addresses forgets each once its window has passed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Clock } from '../core/clock.ts';
import { DEFAULT_LIMITS, MemoryLimiter } from '../core/rate-limit.ts';

test('a key is forgotten once its window has passed (ten minutes for registrations, an hour for seats)', async () => {
  const clock = new Clock();
  const limiter = new MemoryLimiter(clock);
  const registrations = DEFAULT_LIMITS.registration.perAddress;
  const seats = DEFAULT_LIMITS.seats.perAddress;
  for (let n = 0; n < 10_000; n++) await limiter.take([{ key: `registration:203.0.113.${n}`, ...registrations }]);
  await limiter.take([{ key: 'seats:198.51.100.1', ...seats }]);
  assert.equal(limiter.size, 10_001);

  // Within the window every key counts; past it, the next call's sweep forgets them.
  clock.advance(registrations.windowMs / 1000 + 60);
  await limiter.take([{ key: 'registration:192.0.2.1', ...registrations }]);
  assert.equal(limiter.size, 2, 'the seat limit (an hour) and the new one');
  assert.equal(await limiter.room({ key: 'seats:198.51.100.1', ...seats }), seats.max - 1, 'still counted');

  clock.advance(seats.windowMs / 1000);
  await limiter.take([{ key: 'registration:192.0.2.2', ...registrations }]);
  assert.equal(limiter.size, 1);
});
