#!/bin/sh
# docker-compose.yml's `tls` service: the certificates of the compose deployment, one volume per
# service that uses them, so that each container holds its own key only (review R8). Made once, and
# again for a folder found incomplete; the CA's key never leaves this service's own volume.
#   ca/         ca.pem, ca-key.pem: Temporal's internal CA (volume tls-ca, which only `tls` mounts)
#   temporal/   ca.pem; frontend.pem, frontend-key.pem (the frontend, for the name `temporal`, mutual
#               TLS only); client.pem, client-key.pem (its own system worker)       -> temporal
#   receiver/, worker/, ui/, namespace/
#               ca.pem; client.pem, client-key.pem: that service's client certificate
#                                            -> receiver, worker, temporal-ui, temporal-namespace
#   edge/       edge.pem, edge-key.pem: the entry's, self-signed for localhost and EDGE_HOSTNAME (not
#               from the internal CA: trusting it trusts nothing else), or docker/edge-tls/cert.pem
#               and key.pem when given there                                           -> entry
# Owners: uid 1000 for the folders of Temporal and the services (the `temporal` user of Temporal's
# images, the `node` user of ours), root for ca/ and edge/ (nginx's master reads its key as root);
# each folder and key readable by its owner only.
# TLS_DIR (/tls) and TLS_GIVEN (/given) move it, for test/unit/compose-tls.test.ts.
set -eu
out=${TLS_DIR:-/tls}
given=${TLS_GIVEN:-/given}
[ "$(id -u)" = 0 ] || { echo 'make-tls.sh: run it as root (it gives each folder its owner)' >&2; exit 1; }
command -v openssl >/dev/null || apk add --no-cache openssl >/dev/null
umask 077
days=825
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }
# certificate <folder> <name> <subject> <ca|self> <extension>...: <name>-key.pem and <name>.pem.
certificate() {
  dir=$1 name=$2 subject=$3 signer=$4
  shift 4
  key "$dir/$name-key.pem"
  openssl req -new -key "$dir/$name-key.pem" -subj "$subject" -out "$dir/$name.csr"
  printf '%s\n' "$@" 'basicConstraints=critical,CA:FALSE' >"$dir/$name.ext"
  if [ "$signer" = self ]; then
    set -- -signkey "$dir/$name-key.pem"
  else
    set -- -CA "$out/ca/ca.pem" -CAkey "$out/ca/ca-key.pem" -CAcreateserial
  fi
  openssl x509 -req -in "$dir/$name.csr" "$@" -days "$days" -out "$dir/$name.pem" -extfile "$dir/$name.ext"
  rm "$dir/$name.csr" "$dir/$name.ext"
}
# A folder made again from nothing.
fresh() { rm -rf "${1:?}"/* "$1"/.complete; }

mkdir -p "$out/ca" "$out/temporal" "$out/edge"
if [ ! -f "$out/ca/.complete" ]; then
  fresh "$out/ca"
  key "$out/ca/ca-key.pem"
  openssl req -x509 -new -key "$out/ca/ca-key.pem" -subj '/CN=webhook trigger service compose CA' \
    -days 3650 -out "$out/ca/ca.pem"
  # A new CA: everything the old one signed is made again.
  rm -f "$out"/*/.complete
  touch "$out/ca/.complete"
fi
if [ ! -f "$out/temporal/.complete" ]; then
  fresh "$out/temporal"
  cp "$out/ca/ca.pem" "$out/temporal/ca.pem"
  certificate "$out/temporal" frontend /CN=temporal ca 'subjectAltName=DNS:temporal' 'extendedKeyUsage=serverAuth'
  certificate "$out/temporal" client '/CN=temporal system worker' ca 'extendedKeyUsage=clientAuth'
  touch "$out/temporal/.complete"
fi
for service in receiver worker ui namespace; do
  mkdir -p "$out/$service"
  [ -f "$out/$service/.complete" ] && continue
  fresh "$out/$service"
  cp "$out/ca/ca.pem" "$out/$service/ca.pem"
  certificate "$out/$service" client "/CN=webhook trigger service $service" ca 'extendedKeyUsage=clientAuth'
  touch "$out/$service/.complete"
done
# The entry's: a certificate and key given win, at every start; else its own, made again when
# EDGE_HOSTNAME changes.
names="localhost ${EDGE_HOSTNAME:-localhost}"
if [ -f "$given/cert.pem" ] && [ -f "$given/key.pem" ]; then
  cp "$given/cert.pem" "$out/edge/edge.pem"
  cp "$given/key.pem" "$out/edge/edge-key.pem"
  rm -f "$out/edge/.self-signed"
elif [ "$(cat "$out/edge/.self-signed" 2>/dev/null)" != "$names" ]; then
  fresh "$out/edge"
  certificate "$out/edge" edge "/CN=${EDGE_HOSTNAME:-localhost}" self \
    "subjectAltName=DNS:localhost,DNS:${EDGE_HOSTNAME:-localhost},IP:127.0.0.1" 'extendedKeyUsage=serverAuth'
  echo "$names" >"$out/edge/.self-signed"
fi

for dir in temporal receiver worker ui namespace; do chown -R 1000:1000 "$out/$dir"; done
chown -R 0:0 "$out/ca" "$out/edge"
for dir in ca temporal receiver worker ui namespace edge; do
  chmod 0700 "$out/$dir"
  chmod 0600 "$out/$dir"/*-key.pem
  for cert in "$out/$dir"/*.pem; do case "$cert" in *-key.pem) ;; *) chmod 0644 "$cert" ;; esac; done
done
