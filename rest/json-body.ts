import express, { type RequestHandler } from 'express';
import { unnamed } from '../src/lib/unnamed.js';

/**
 * `bytes.parse` (what body-parser reads its `limit` with) for the forms it accepts: a whole number of bytes
 * or a number with kb/mb/gb/tb/pb; anything else is null (the plain reader is then never used).
 */
export function limitBytes(limit: string): number | null {
  const unit = /^((-|\+)?(\d+(?:\.\d+)?)) *(kb|mb|gb|tb|pb)$/i.exec(limit);
  if (unit) return Math.floor(parseFloat(unit[1]!) * 1024 ** (['kb', 'mb', 'gb', 'tb', 'pb'].indexOf(unit[4]!.toLowerCase()) + 1));
  return /^\d+$/.test(limit) ? Number(limit) : null;
}

/** Node's system error code raw-body gives an aborted body (not one of the API's codes, which come from src/errors). */
const SYSTEM_ABORTED = 'ECONNABORTED';

/** The error body-parser passes on when the client leaves mid-body (raw-body's, wrapped): a 400 nobody reads. */
function abortedError(length: number, received: number): Error {
  return Object.assign(new Error('request aborted'), {
    status: 400,
    statusCode: 400,
    expose: true,
    code: SYSTEM_ABORTED,
    expected: length,
    length,
    received,
    type: 'request.aborted',
  });
}

/** A body JSON.parse refused: what body-parser passes on (`bodyParseError` reads its `type`). */
function malformedError(err: unknown, body: string): Error {
  return Object.assign(err instanceof Error ? err : new Error(String(err)), { status: 400, statusCode: 400, expose: true, body, type: 'entity.parse.failed' });
}

/**
 * The JSON body reader of every REST route: `express.json({ limit, strict: false })`, with the request every
 * SDK sends read directly (issue 28: body-parser's content-type, charset and encoding checks, raw-body and
 * iconv were about 2.5 % of a gateway call's CPU). The plain case is a readable request with
 * `content-type: application/json` exactly (no charset parameter: UTF-8), no `content-encoding`, no
 * `transfer-encoding` and a `content-length` within the limit; its body is what body-parser makes of it
 * (UTF-8 decoded as iconv does, a leading byte-order mark dropped, `{}` for an empty body, JSON.parse), and
 * its refusals carry body-parser's `type` (malformed JSON, aborted). Every other request goes to body-parser.
 */
export function jsonBody(limit: string): RequestHandler {
  const parser = express.json({ limit, strict: false });
  const max = limitBytes(limit);
  return (req, res, next) => {
    const headers = req.headers;
    const declared = headers['content-length'];
    if (
      max === null ||
      headers['content-type'] !== 'application/json' ||
      headers['content-encoding'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      declared === undefined ||
      !/^\d+$/.test(declared) ||
      Number(declared) > max ||
      !req.readable ||
      req.socket?.readable !== true
    ) {
      return parser(req, res, next);
    }
    const length = Number(declared);
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    // Made per request: unnamed, so that tsx's keepNames does not name each (src/lib/unnamed.ts).
    const onData = unnamed((chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    });
    const onAborted = unnamed(() => settle(abortedError(length, received)));
    const onEnd = unnamed(() => settle(undefined));
    const settle = unnamed((err: Error | undefined) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onAborted);
      if (err) {
        req.resume();
        return next(err);
      }
      let text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, received).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      try {
        req.body = text.length === 0 ? {} : JSON.parse(text);
      } catch (e) {
        return next(malformedError(e, text));
      }
      next();
    });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onAborted);
  };
}
