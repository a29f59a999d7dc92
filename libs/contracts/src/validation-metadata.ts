import { getMetadataStorage } from 'class-validator';

/**
 * class-validator's metadata look-up, once per class instead of once per validation (issue #29).
 *
 * Every `validateSync` asks the metadata storage for the class's rules
 * (`getTargetValidationMetadatas`), which filters the class's own rules and walks every class
 * registered in the process (`instanceof` each, for inherited rules): a cost per validated object
 * that grows with the number of DTOs loaded (all of the contracts'), paid by every message from
 * outside (`agent.*`, twice: the envelope and its data) and every request. The answer depends only
 * on the class, the options (`always`, `strictGroups`; no groups) and the rules registered so far,
 * so it is kept per class and options and dropped whenever a rule or constraint is registered (a
 * class declared later). A look-up with groups goes through class-validator as before. The arrays
 * kept are only read: by class-validator's executor, which groups them by property into an object
 * of its own (kept too, per array).
 */
export function memoizeValidationMetadata(): void {
  const storage = getMetadataStorage() as unknown as Storage;
  if (storage[MEMOIZED]) return;
  storage[MEMOIZED] = true;
  const lookUp = storage.getTargetValidationMetadatas;
  const group = storage.groupByPropertyName;
  const addValidation = storage.addValidationMetadata;
  const addConstraint = storage.addConstraintMetadata;
  let kept = new Map<unknown, Map<string, unknown[]>>();
  let grouped = new WeakMap<unknown[], unknown>();
  const forget = () => {
    kept = new Map();
    grouped = new WeakMap();
  };
  storage.addValidationMetadata = function (this: Storage, ...args: unknown[]) {
    forget();
    return addValidation.apply(this, args);
  };
  storage.addConstraintMetadata = function (this: Storage, ...args: unknown[]) {
    forget();
    return addConstraint.apply(this, args);
  };
  storage.getTargetValidationMetadatas = function (
    this: Storage,
    target: unknown,
    schema: unknown,
    always: unknown,
    strictGroups: unknown,
    groups?: unknown[],
  ) {
    if ((groups && groups.length > 0) || (schema !== undefined && typeof schema !== 'string'))
      return lookUp.call(this, target, schema, always, strictGroups, groups);
    const key = `${String(schema)}|${Boolean(always)}|${Boolean(strictGroups)}`;
    let ofTarget = kept.get(target);
    if (!ofTarget) kept.set(target, (ofTarget = new Map()));
    let found = ofTarget.get(key);
    if (!found) ofTarget.set(key, (found = lookUp.call(this, target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = function (this: Storage, metadata: unknown[]) {
    let found = grouped.get(metadata);
    if (!found) grouped.set(metadata, (found = group.call(this, metadata)));
    return found;
  };
}

const MEMOIZED = Symbol('openq:memoizedValidationMetadata');

interface Storage {
  [MEMOIZED]?: boolean;
  getTargetValidationMetadatas(...args: unknown[]): unknown[];
  groupByPropertyName(metadata: unknown[]): unknown;
  addValidationMetadata(...args: unknown[]): unknown;
  addConstraintMetadata(...args: unknown[]): unknown;
}
