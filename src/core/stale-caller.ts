/**
 * A caller made from the process's memory of its key's last lookup (no statement) was found changed when its
 * admission confirmed it (the key or an ancestor revoked, or its key, user or workspace row changed), or when
 * a refusal before the admission looked it up first. Nothing was counted or admitted for it: the adapter
 * starts the request again with a lookup (rest/route.ts), which decides what the request gets. Never a
 * client's answer.
 */
export class StaleCaller extends Error {
  constructor() {
    super('the caller changed since its key was last looked up');
    this.name = 'StaleCaller';
  }
}
