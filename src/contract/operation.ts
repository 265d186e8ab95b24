/**
 * An operation of the service's port, as data and as types: its method and path, whether it needs
 * the admin token, the request body and query it takes and what each status answers, each by its
 * schema's name (./requests.ts, ./answers.ts). From a declaration come the types of what its
 * handler is given and must return (./route.ts) and of what a client sends and reads
 * (web/src/api.ts). Types, and `withOperationIds`, which imports nothing: the dashboard's compiler reads this
 * without the server's code.
 */
import type { input, output } from 'zod';
import type { ANSWERS } from './answers';
import type { BODIES, QUERIES } from './requests';
import type { Access, Caller } from '../domain/workspaces';

type AnswerName = keyof typeof ANSWERS;
type BodyName = keyof typeof BODIES;
type QueryName = keyof typeof QUERIES;

/** What a path's `:id` can name, found in the caller's workspace before the handler runs (./route.ts). */
export type Named = 'robot' | 'app' | 'connection' | 'run' | 'delivery' | 'key' | 'issue' | 'channel';

/** A route as the OpenAPI document sees it (the webhook and codec routes are declared as these). */
export interface Operation {
  /**
   * What the contract calls it, its `operationId` in the OpenAPI document: a key of ./management.ts
   * `MANAGEMENT` (given by `withOperationIds`), the webhook URL's and codec endpoints' in their declarations.
   */
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Koa's form: `/api/robots/:id`. */
  path: string;
  summary: string;
  /**
   * Who may call it (src/domain/workspaces.ts): `open` needs no bearer credential (the webhook URL,
   * the Web UI's codec routes with their own key); anything else needs the admin token or a key.
   */
  access: Access;
  /** A management write: the action the audit log records it as, `<resource kind>.<verb>`. */
  audit?: string;
  /** The workspace it acts in is the path's `:id` (a key of another workspace: 404). */
  workspaceFromPath?: true;
  /**
   * What the path's `:id` names (every other path with an `:id` declares it): its handler is handed it,
   * found in the caller's workspace, and the route answers 404 for one of another workspace (./route.ts).
   */
  names?: Named;
  body?: BodyName | 'raw';
  query?: QueryName;
  /** A paged list: the field of its answer that holds the page's items (`nextCursor` continues it). */
  items?: string;
  /**
   * Status → the answer's schema, `empty`, `document` (the OpenAPI document), `file` (bytes: ./route.ts)
   * or `line` (one line of text/plain: a webhook URL's refusal, src/receiver/refusals.ts).
   */
  answers: Record<number, AnswerName | 'empty' | 'document' | 'file' | 'line'>;
}

/** An operation as declared in a list keyed by its operationId, which `withOperationIds` gives it. */
export type OperationDeclaration = Omit<Operation, 'operationId'>;

/** The declarations `ops`, each given its key as its `operationId`. */
export const withOperationIds = <const T extends Record<string, OperationDeclaration>>(ops: T) =>
  Object.fromEntries(Object.entries(ops).map(([operationId, op]) => [operationId, { ...op, operationId }])) as {
    [K in keyof T]: T[K] & { operationId: K };
  };

/** The names of a path's parameters: `/api/robots/:id/runs` has `id`. */
type ParamsOf<P> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
type BodyOf<N> = N extends BodyName ? output<(typeof BODIES)[N]> : undefined;
type QueryOf<N> = N extends QueryName ? output<(typeof QUERIES)[N]> : undefined;

/** What a route's handler is given: the request's path parameters, body and query, read and checked. */
export interface RouteRequest<O extends Operation> {
  params: Record<ParamsOf<O['path']>, string>;
  body: BodyOf<O['body']>;
  query: QueryOf<O['query']>;
  /** Who asks, in which workspace (none on `open` routes). */
  caller: Caller;
}

/** The name of an operation's one 2xx answer. */
export type SuccessAnswer<O extends Operation> = O['answers'][Extract<keyof O['answers'], 200 | 201 | 202 | 204>];
/**
 * What becomes `T` once sent as JSON: a string may be given as anything whose `toJSON` gives one
 * (a `Date` is sent as its ISO string, which is what the answers' times are).
 */
type Sent<T> = T extends string
  ? T | { toJSON(): T }
  : T extends readonly (infer E)[]
    ? readonly Sent<E>[]
    : T extends object
      ? { [K in keyof T]: Sent<T[K]> }
      : T;
/** A JSON answer as a handler may give it (`input`: before the schema's defaults) or a client reads it (`output`). */
export type AnswerIn<A> = A extends AnswerName
  ? Sent<input<(typeof ANSWERS)[A]>>
  : A extends 'document'
    ? object
    : A extends 'file'
      ? FileAnswer
      : void;
export type AnswerOut<A> = A extends AnswerName
  ? output<(typeof ANSWERS)[A]>
  : A extends 'document'
    ? object
    : A extends 'file'
      ? Blob
      : void;

/** A `file` answer: bytes sent as an attachment, never rendered (./route.ts). */
export interface FileAnswer {
  file: { filename: string | null; bytes: Uint8Array };
}

/** The request body a client sends to the operation `O` (before the schema's defaults). */
export type BodyIn<O extends Operation> = O['body'] extends BodyName ? input<(typeof BODIES)[O['body']]> : never;

/** What a client gives to call the operation `O`: its path parameters, body and query, where it has them. */
export type CallArgs<O extends Operation> = ([ParamsOf<O['path']>] extends [never]
  ? Record<never, never>
  : { params: Record<ParamsOf<O['path']>, string> }) &
  (O['body'] extends BodyName ? { body: BodyIn<O> } : Record<never, never>) &
  (O['query'] extends QueryName ? { query?: input<(typeof QUERIES)[O['query']]> } : Record<never, never>);
