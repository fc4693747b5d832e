// The objects the original's expression tests evaluate against.

export const obj1 = {
  apiVersion: 'testview1.view.dcontroller.io/v1alpha1',
  kind: 'testview1',
  metadata: { name: 'name', namespace: 'default' },
  spec: { a: 1, b: { c: 2 }, x: [1, 2, 3, 4, 5] },
};

export const obj2 = {
  apiVersion: 'testview2.view.dcontroller.io/v1alpha1',
  kind: 'testview2',
  metadata: { namespace: 'default2', name: 'name' },
  spec: [
    { name: 'name1', a: 1, b: { c: 2 } },
    { name: 'name2', a: 2, b: { d: 3 } },
  ],
};

export const fixedNow = { now: () => new Date('2025-01-02T03:04:05.678Z') };
