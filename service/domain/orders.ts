/**
 * Orders as their buyer reads them: the lines of orders with their classes, and a participant's
 * orders (the checkout's answers, the participant's own area).
 */
import { isoTime } from '../core/ids.ts';
import type { Db } from '../db/database.ts';
import type { ParticipantOrder } from '../../contract/api/checkout.ts';

export interface ItemRow {
  order_id: string;
  class_id: string;
  seats: number;
  unit_price: number;
  discount: number;
  total: number;
  attendees: string;
  course_id: string;
  course_title: string;
  starts_at: number;
  ends_at: number;
  timezone: string;
  location: string;
}

export const orderItems = (db: Db, orderIds: readonly string[]): Promise<ItemRow[]> =>
  orderIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('order_items as i')
        .innerJoin('classes as cl', 'cl.id', 'i.class_id')
        .innerJoin('courses as co', 'co.id', 'cl.course_id')
        .select([
          'i.order_id',
          'i.class_id',
          'i.seats',
          'i.unit_price',
          'i.discount',
          'i.total',
          'i.attendees',
          'co.id as course_id',
          'co.title as course_title',
          'cl.starts_at',
          'cl.ends_at',
          'cl.timezone',
          'cl.location',
        ])
        .where('i.order_id', 'in', orderIds)
        .orderBy('i.order_id')
        .orderBy('i.position')
        .execute();

/** The participant's orders, newest first; each class `past` once it has started by the service clock (`now`). */
export async function participantOrders(db: Db, participantId: string, now: number): Promise<ParticipantOrder[]> {
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'number', 'status', 'created_at', 'total', 'currency'])
    .where('participant_id', '=', participantId)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .execute();
  const items = await orderItems(
    db,
    orders.map((o) => o.id),
  );
  return orders.map((o) => ({
    id: o.id,
    number: o.number,
    status: o.status,
    created_at: isoTime(o.created_at),
    total: { amount: o.total, currency: o.currency },
    items: items
      .filter((i) => i.order_id === o.id)
      .map((i) => ({
        class_id: i.class_id,
        course_title: i.course_title,
        starts_at: isoTime(i.starts_at),
        ends_at: isoTime(i.ends_at),
        timezone: i.timezone,
        location: i.location,
        seats: i.seats,
        past: Number(i.starts_at) <= now,
      })),
  }));
}
