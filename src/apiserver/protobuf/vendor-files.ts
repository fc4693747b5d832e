import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../package-root.js';

/**
 * Where scripts/gen-proto.ts writes k8s.io/api's and k8s.io/apimachinery's generated.proto files: under src/
 * like the OpenAPI documents, so src/, dist/ and the CLI bundle find them alike.
 */
export const VENDOR_DIR = join(PACKAGE_ROOT, 'src', 'apiserver', 'protobuf', 'vendor');
/** Every vendored .proto as one protobufjs JSON descriptor (Root#toJSON). */
export const DESCRIPTOR_FILE = 'descriptor.json';
/** The Go struct facts per message (see GoField). */
export const GO_FIELDS_FILE = 'go-fields.json';

/**
 * One Go struct field with a protobuf tag: [Go name, field number, JSON name ('' when inline), Go type as
 * written (`*int32`, `[]Container`, `map[string]string`, `metav1.Time`), 1 when its json tag has omitempty].
 */
export type GoField = [goName: string, number: number, json: string, goType: string, omitempty: 0 | 1];
