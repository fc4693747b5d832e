// The face of src/cli/: no other part imports from it.
export {};
