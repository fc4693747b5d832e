// The face of src/controller-manager/: no other part imports from it.
export {};
