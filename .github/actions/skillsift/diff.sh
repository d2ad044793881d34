#!/usr/bin/env bash
# The action's pull-request step: `skillsift diff` of the catalog against
# the pull request's base commit, its Markdown appended to the job summary
# ($GITHUB_STEP_SUMMARY) and, with a token, kept in one pull-request
# comment (found by its first line, `<!-- skillsift-diff -->`, and edited
# in place on every push).
#
# Environment (set by action.yml):
#   SG_PATH   catalog root
#   SG_BASE   the base commit (github.event.pull_request.base.sha); empty
#             outside a pull request: nothing to compare, the step says so
#   SG_DIFF   summary (never fails the job on routing), gate (fails it when
#             routing got worse) or off
#   SG_TOKEN  a token that may write pull-request comments; empty: the job
#             summary only
#   SG_REPO   owner/name; SG_PR the pull request's number
set -uo pipefail

path="${SG_PATH:-.}"
# a SKILL.md names its skill folder
if [ -f "$path" ]; then
  path="$(dirname "$path")"
fi
base="${SG_BASE:-}"
mode="${SG_DIFF:-summary}"
out="${GITHUB_OUTPUT:-/dev/null}"

case "$mode" in
  summary|gate) ;;
  off) echo "diff-exit-code=" >> "$out"; exit 0 ;;
  *) echo "::error::skillsift: diff must be summary, gate or off, not '$mode'"; exit 2 ;;
esac
if [ -z "$base" ]; then
  echo "skillsift diff: not a pull request (no base commit): nothing to compare" >&2
  echo "diff-exit-code=" >> "$out"
  exit 0
fi

# actions/checkout fetches one commit: fetch the base too when it is missing
if ! git -C "$path" cat-file -e "${base}^{commit}" 2>/dev/null; then
  if ! git -C "$path" fetch --quiet --no-tags --depth=1 origin "$base"; then
    echo "::error::skillsift diff: cannot fetch the base commit $base (give actions/checkout fetch-depth: 0, or fetch it before this step)"
    echo "diff-exit-code=2" >> "$out"
    exit 2
  fi
fi

md="$(mktemp)"
trap 'rm -f "$md"' EXIT
skillsift diff "$base" "$path" --format markdown > "$md"
code=$?
echo "diff-exit-code=$code" >> "$out"
if [ "$code" -gt 1 ]; then
  echo "::error::skillsift diff exited $code"
  exit "$code"
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$md" >> "$GITHUB_STEP_SUMMARY"
fi

if [ -n "${SG_TOKEN:-}" ] && [ -n "${SG_PR:-}" ] && [ -n "${SG_REPO:-}" ]; then
  export GH_TOKEN="$SG_TOKEN"
  marker="$(head -n 1 "$md")"
  id="$(gh api "repos/$SG_REPO/issues/$SG_PR/comments" --paginate \
        --jq ".[] | select(.body | startswith(\"$marker\")) | .id" | head -n 1)"
  if [ -n "$id" ]; then
    gh api --silent -X PATCH "repos/$SG_REPO/issues/comments/$id" -F "body=@$md" \
      || echo "::warning::skillsift diff: could not update comment $id"
  else
    gh api --silent -X POST "repos/$SG_REPO/issues/$SG_PR/comments" -F "body=@$md" \
      || echo "::warning::skillsift diff: could not comment on pull request #$SG_PR (does the token have pull-requests: write?)"
  fi
fi

if [ "$mode" = gate ]; then
  exit "$code"
fi
exit 0
