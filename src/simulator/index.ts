// The face of src/simulator/: no other part imports from it.
export {};
