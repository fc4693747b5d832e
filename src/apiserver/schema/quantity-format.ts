// resource.Quantity's text form as its decoders take it (k8s.io/apimachinery pkg/api/resource
// ParseQuantity): JSON's UnmarshalJSON and protobuf's Unmarshal both refuse other text with the
// same error, which kube-apiserver answers as a 400.

/** ParseQuantity's regular expression (splitREString). */
export const QUANTITY_FORMAT = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

/** ErrFormatWrong's text. */
export const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${QUANTITY_FORMAT.source}'`;

/** ErrFormatWrong's text for text ParseQuantity refuses; undefined for a quantity. */
export function quantityFormatError(text: string): string | undefined {
  return QUANTITY_FORMAT.test(text.trim()) ? undefined : QUANTITY_FORMAT_ERROR;
}
