#!/usr/bin/env bash
# Fetches DuckDB's C library for reading Parquet: the official libduckdb.so
# from the npm package @duckdb/node-bindings-linux-x64 and the duckdb.h of the
# same DuckDB version from the npm package duckdb. `npm pack` downloads the
# tarballs without running any install script; each is checked against the
# pinned integrity, and only the library, the header and the licence are kept,
# in vendor/duckdb/ (ignored by git: never committed). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.4.4
library_package=@duckdb/node-bindings-linux-x64@1.4.4-r.4
library_integrity=sha512-jBTL/WvfwxLToFa/pVHfT6elMtltJGnc3wSuxZD9OfMltit9YUdVFS37vBFQzXMT1Z8OWjtSjMh+zPKxOwHLHA==
header_package=duckdb@1.4.4
header_integrity=sha512-hEJJ5hyVF0VLj3dmOLpsWrQR0b3d4Ykqtygm6iUXjHJDDnSqg/USKxcb5qvNrOhFYPgktayU6dXCtgPqcmmpog==

vendor=vendor/duckdb
stamp="$library_package $library_integrity $header_package $header_integrity"
if [ -f "$vendor/STAMP" ] && [ "$(cat "$vendor/STAMP")" = "$stamp" ]; then
  exit 0
fi
command -v npm >/dev/null || { echo "vendor_duckdb: npm is missing (scripts/setup.sh installs it)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# fetch PACKAGE INTEGRITY: the tarball's path, once its sha512 is the pinned one.
fetch() {
  local name
  name=$(cd "$work" && npm pack "$1" --silent --registry "${AEVAL_NPM_REGISTRY:-https://registry.npmjs.org/}" 2>/dev/null | tail -n 1) ||
    { echo "vendor_duckdb: npm pack $1 failed: is the npm registry reachable?" >&2; exit 1; }
  local actual="sha512-$(openssl dgst -sha512 -binary "$work/$name" | base64 -w0)"
  if [ "$actual" != "$2" ]; then
    echo "vendor_duckdb: $1 does not have the pinned integrity ($actual, expected $2)" >&2
    exit 1
  fi
  echo "$work/$name"
}
library_tarball=$(fetch "$library_package" "$library_integrity")
header_tarball=$(fetch "$header_package" "$header_integrity")

rm -rf "$vendor.new"
mkdir -p "$vendor.new/lib" "$vendor.new/include"
tar -xzf "$library_tarball" -C "$work" package/libduckdb.so package/LICENSE
mv "$work/package/libduckdb.so" "$vendor.new/lib/"
mv "$work/package/LICENSE" "$vendor.new/LICENSE"
tar -xzf "$header_tarball" -C "$work" package/src/duckdb/src/include/duckdb.h
mv "$work/package/src/duckdb/src/include/duckdb.h" "$vendor.new/include/"
echo "$version" > "$vendor.new/VERSION"
echo "$stamp" > "$vendor.new/STAMP"
rm -rf "$vendor"
mv "$vendor.new" "$vendor"
echo "vendor_duckdb: DuckDB $version in $vendor" >&2
