import { errors } from '../../errors/index.js';

/** 402 SEAT_LIMIT `{ seats }` when the subscription's seats cover fewer users than requested. */
export function assertSeatRoom(ws: { seats: number }, users: number): void {
  if (users > ws.seats) throw errors.seatLimit(ws.seats);
}
