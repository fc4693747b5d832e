#!/usr/bin/env bash
# Generates the control plane's PKI into DIR/pki with openssl, once (kept if DIR/pki/ca.crt exists):
#   ca.{crt,key}                 the one CA that signs everything and that the apiserver trusts
#   apiserver.{crt,key}          serving cert for 127.0.0.1 / localhost / kubernetes.default.svc
#   admin.{crt,key}              client cert, CN=admin, O=system:masters (the kubeconfig's user)
#   controller-manager.{crt,key} client cert, CN=system:kube-controller-manager (its bootstrap role)
#   sa.{key,pub}                 the ServiceAccount token signing key pair
set -euo pipefail
pki="${1:?usage: certs.sh DIR}/pki"
[ -f "$pki/ca.crt" ] && exit 0
mkdir -p "$pki"
cd "$pki"

openssl genrsa -out ca.key 2048 2>/dev/null
openssl req -x509 -new -key ca.key -sha256 -days 3650 -subj "/CN=flowops-test-ca" -out ca.crt \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature"

# sign NAME SUBJECT EXTENSIONS
sign() {
  openssl genrsa -out "$1.key" 2048 2>/dev/null
  openssl req -new -key "$1.key" -subj "$2" -out "$1.csr"
  printf '%s\n' "$3" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -sha256 -days 3650 \
    -extfile "$1.ext" -out "$1.crt" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}

client_ext="basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"

sign apiserver "/CN=kube-apiserver" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
sign admin "/O=system:masters/CN=admin" "$client_ext"
sign controller-manager "/CN=system:kube-controller-manager" "$client_ext"

openssl genrsa -out sa.key 2048 2>/dev/null
openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
chmod 600 ./*.key
