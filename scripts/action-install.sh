#!/usr/bin/env bash
# The first step of action.yml: installs the release binary of the Clarify version this
# action runs as "$RUNNER_TEMP/clarify-bot", after checking its SHA-256 against the
# release's checksums.txt, and writes installed=true to $GITHUB_OUTPUT. A ref that is not a
# release tag, or a release or asset GitHub does not have, writes installed=false: the next
# steps build the action's own source instead. A checksum that does not match, or is
# missing, fails the step: a binary that was not verified is never run, and a failed check
# never falls back to anything.
#
# The version is $CLARIFY_VERSION (the action's `version` input) or else the action's own
# ref: runners check an action out at .../_actions/<owner>/<repo>/<ref>, and
# github.action_ref is empty inside composite actions, so the path is what tells. The path
# names the repository too, whose release is downloaded: a fork used at a tag runs its own
# release, not clarify-app/clarify's (an action not under _actions, `uses: ./`, takes
# clarify-app/clarify's).
#
# checksums.txt comes from the same release, so it shows the download intact, not who built
# it. Where the GitHub CLI is installed (GitHub's hosted runners have it), the binary's
# artifact attestation is checked too (`gh attestation verify`, with $GH_TOKEN): it must have
# been built by a workflow of that repository (.github/workflows/release.yml), or the step
# fails. Without gh the step says that only the checksum was checked.
set -euo pipefail

: "${RUNNER_TEMP:?RUNNER_TEMP is not set: this runs as a step of a GitHub Actions job}"
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set: this runs as a step of a GitHub Actions job}"
release_tag='^v[0-9]+\.[0-9]+\.[0-9]+([-+.][0-9A-Za-z.+-]*)?$'
target="$RUNNER_TEMP/clarify-bot"
# Whatever is at the target was not verified by this run.
rm -f "$target"

from_source() {
  echo "::notice::Clarify $1: building it from source instead"
  echo "installed=false" >>"$GITHUB_OUTPUT"
  exit 0
}

fail() {
  echo "::error::$1"
  exit 1
}

action_path="${GITHUB_ACTION_PATH:-}"
action_path="${action_path%/}"
repository=clarify-app/clarify
if [[ "$action_path" =~ /_actions/([^/]+)/([^/]+)/[^/]+$ ]]; then
  repository="${BASH_REMATCH[1]}/${BASH_REMATCH[2]}"
fi

version="${CLARIFY_VERSION:-}"
if [ -n "$version" ]; then
  # An explicit version that is no release tag is a mistake to report, not to build around.
  [[ "$version" =~ $release_tag ]] ||
    fail "version \"$version\" is not a release tag such as v1.2.3; leave it empty to run the action's own ref"
else
  version="${action_path##*/}"
  [[ "$version" =~ $release_tag ]] || from_source "at ref \"$version\" is not a release"
fi

case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
  Linux/X64) asset=clarify_linux_amd64 ;;
  Linux/ARM64) asset=clarify_linux_arm64 ;;
  macOS/X64) asset=clarify_darwin_amd64 ;;
  macOS/ARM64) asset=clarify_darwin_arm64 ;;
  Windows/X64) asset=clarify_windows_amd64.exe ;;
  *) from_source "$version has no release binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}" ;;
esac

server="${GITHUB_SERVER_URL:-https://github.com}"
base="$server/$repository/releases/download/$version"
work="$(mktemp -d "$RUNNER_TEMP/clarify-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# download FILE: into $work; a 404 means the release or the asset is not there (build from
# source); any other failure, after curl's retries of transient answers, fails the step.
download() {
  local status
  status="$(curl -fsSL --retry 3 --retry-delay 1 -o "$work/$1" -w '%{http_code}' "$base/$1")" && return 0
  [ "$status" = 404 ] && from_source "$version has no release asset $1 (HTTP 404)"
  fail "downloading $base/$1 failed (HTTP ${status:-no answer})"
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

download checksums.txt
download "$asset"
# sha256sum writes "<hex>  <file>", or "<hex> *<file>" in binary mode.
want="$(awk -v f="$asset" '$2 == f || $2 == "*" f { print tolower($1); exit }' "$work/checksums.txt")"
[ -n "$want" ] || fail "checksums.txt of $version has no line for $asset: not running an unverified binary"
got="$(sha256 "$work/$asset")" || fail "could not compute the sha256 of $asset (sha256sum or shasum)"
[ "$got" = "$want" ] ||
  fail "$asset of $version does not match checksums.txt: expected sha256 $want, got $got; not running it"
if command -v gh >/dev/null 2>&1; then
  host="${server#*://}"
  [ "$host" = github.com ] || export GH_HOST="$host"
  gh attestation verify "$work/$asset" --repo "$repository" >"$work/attestation.log" 2>&1 ||
    fail "$asset of $version has no attestation of $repository's that verifies (gh attestation verify): not running it. $(tr '\n' ' ' <"$work/attestation.log")"
  provenance="attested by a workflow of $repository"
else
  echo "::notice::gh is not installed on this runner: $asset of $version is checked against checksums.txt only, not its artifact attestation"
  provenance="not checked for an attestation (no gh)"
fi
chmod +x "$work/$asset"
mv "$work/$asset" "$target"
echo "Clarify $version from $repository: $asset, sha256 $got as checksums.txt says, $provenance"
echo "installed=true" >>"$GITHUB_OUTPUT"
