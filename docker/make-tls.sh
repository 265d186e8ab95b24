#!/bin/sh
# docker-compose.yml's `tls` service: the certificates of the compose deployment, made once in the
# `tls` volume (as src/launch/servers/tls.ts makes the cluster's):
#   ca.pem                          the deployment's own certificate authority
#   frontend.pem, frontend-key.pem  Temporal's frontend, for the name `temporal` (mutual TLS only)
#   client.pem, client-key.pem      the one client certificate: receivers, workers, the Web UI,
#                                   Temporal's own system worker and the namespace's set-up
#   edge.pem, edge-key.pem          the entry's (TLS at the edge): docker/edge-tls/cert.pem and
#                                   key.pem when given there, else one the CA signs for localhost
#                                   and EDGE_HOSTNAME
# Keys are readable by uid 1000 only (the `node` user of our image and the `temporal` user of
# Temporal's images; nginx's master reads them as root).
set -eu
cd /tls
if [ ! -f .complete ]; then
  apk add --no-cache openssl >/dev/null
  key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }
  sign() { # name subject extensions...
    name=$1 subject=$2; shift 2
    key "$name-key.pem"
    openssl req -new -key "$name-key.pem" -subj "$subject" -out "$name.csr"
    printf '%s\n' "$@" > "$name.ext"
    openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 825 \
      -out "$name.pem" -extfile "$name.ext"
    rm "$name.csr" "$name.ext"
  }
  key ca-key.pem
  openssl req -x509 -new -key ca-key.pem -subj '/CN=webhook trigger service compose CA' -days 3650 -out ca.pem
  sign frontend /CN=temporal 'subjectAltName=DNS:temporal' 'extendedKeyUsage=serverAuth'
  sign client '/CN=webhook trigger service' 'extendedKeyUsage=clientAuth'
  sign edge /CN=localhost "subjectAltName=DNS:localhost,DNS:${EDGE_HOSTNAME:-localhost},IP:127.0.0.1" \
    'extendedKeyUsage=serverAuth'
  touch .complete
fi
# A certificate and key given for the edge win over the one made here, at every start.
if [ -f /given/cert.pem ] && [ -f /given/key.pem ]; then
  cp /given/cert.pem edge.pem
  cp /given/key.pem edge-key.pem
fi
chown 1000:1000 ./*.pem
chmod 0600 ./*-key.pem
chmod 0644 ca.pem frontend.pem client.pem edge.pem
