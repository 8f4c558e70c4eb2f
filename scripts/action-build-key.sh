#!/usr/bin/env bash
# A step of action.yml at a branch or a commit (no release binary): names the cache entry
# of the binary built from this action's own source, so that only the first job after the
# source changes builds it. Writes to $GITHUB_OUTPUT:
#   key   clarify-bot-<RUNNER_OS>-<RUNNER_ARCH>-<digest>, the digest being a SHA-256 over
#         the files the build reads: go.mod, go.sum, every Go source but the tests, and the
#         files they embed (//go:embed);
#   path  where the binary is restored to or built at, $RUNNER_TEMP/clarify-bot: outside the
#         workspace, where the run step runs it.
# The digest is computed here because nothing else can: a runner unpacks an action without
# its .git, github.action_ref is empty inside a composite action, and hashFiles() sees only
# the workspace, not $GITHUB_ACTION_PATH.
set -euo pipefail

: "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set: this runs as a step of a GitHub Actions job}"
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set: this runs as a step of a GitHub Actions job}"
: "${RUNNER_TEMP:?RUNNER_TEMP is not set: this runs as a step of a GitHub Actions job}"
cd "$GITHUB_ACTION_PATH"

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$@"
  else
    shasum -a 256 "$@"
  fi
}

# sources lists the build's inputs, one relative path a line.
sources() {
  printf '%s\n' go.mod go.sum
  local go dir pattern
  find . -name '*.go' ! -name '*_test.go' -type f ! -path './.git/*' >"$list"
  cat "$list"
  # //go:embed patterns name files or directories, relative to their Go file.
  tr '\n' '\0' <"$list" | { xargs -0 grep -l '^//go:embed ' || true; } | while IFS= read -r go; do
    dir="$(dirname "$go")"
    for pattern in $(sed -n 's|^//go:embed ||p' "$go"); do
      find "$dir"/${pattern#all:} -type f 2>/dev/null || true
    done
  done
}

list="$(mktemp)"
trap 'rm -f "$list"' EXIT
files=()
while IFS= read -r f; do files+=("$f"); done < <(sources | sed 's|^\./||' | LC_ALL=C sort -u)
digest="$(sha256 "${files[@]}" | sha256 | cut -c1-64)"
key="clarify-bot-${RUNNER_OS:-unknown}-${RUNNER_ARCH:-unknown}-$digest"
echo "Clarify's build: ${#files[@]} files, cache key $key"
{
  echo "key=$key"
  echo "path=$RUNNER_TEMP/clarify-bot"
} >>"$GITHUB_OUTPUT"
