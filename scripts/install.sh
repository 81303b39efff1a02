#!/usr/bin/env bash
# Puts `moneyflow` on your PATH: a release build copied to PREFIX/bin (PREFIX defaults to
# ~/.local, so ~/.local/bin), plus the completion script for your shell.
#
#   bash scripts/install.sh [--prefix DIR] [--shell bash|zsh|fish|none] [--binary FILE]
#
# PREFIX may also come from the environment (PREFIX=/usr/local bash scripts/install.sh; a
# system folder needs sudo). The shell is the one in $SHELL unless --shell names one; its
# completions (from swift-argument-parser's --generate-completion-script) go where that shell
# looks for them:
#   bash  PREFIX/share/bash-completion/completions/moneyflow   (bash-completion loads it)
#   zsh   PREFIX/share/zsh/site-functions/_moneyflow          (a folder to add to fpath)
#   fish  PREFIX/share/fish/vendor_completions.d/moneyflow.fish, or ~/.config/fish/completions
#         when PREFIX is the default
# --binary FILE installs that already built moneyflow instead of building one (the tests use
# the debug build: a release build takes minutes). The build needs the system packages that
# scripts/install-deps.sh installs.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${PREFIX:-$HOME/.local}
default_prefix=$([ -z "${PREFIX:-}" ] && echo 1 || echo 0)
shell_name=$(basename "${SHELL:-bash}")
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=${2:?--prefix needs a folder}; default_prefix=0; shift 2 ;;
    --shell) shell_name=${2:?--shell needs bash, zsh, fish or none}; shift 2 ;;
    --binary) binary=${2:?--binary needs a file}; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see bash scripts/install.sh --help)" >&2; exit 2 ;;
  esac
done
case "$shell_name" in bash|zsh|fish|none) ;; *)
  echo "install.sh: no completions for shell '$shell_name' (bash, zsh and fish have them); installing without" >&2
  shell_name=none ;;
esac

if [ -z "$binary" ]; then
  echo "building moneyflow (release; this takes a few minutes)…" >&2
  swift build -c release --product moneyflow >&2 \
    || { echo "install.sh: the build failed; bash scripts/install-deps.sh installs the system packages it needs" >&2; exit 1; }
  binary="$(swift build -c release --show-bin-path)/moneyflow"
fi
[ -x "$binary" ] || { echo "install.sh: $binary is not an executable" >&2; exit 1; }

mkdir -p "$prefix/bin"
prefix=$(cd "$prefix" && pwd)
install -m 0755 "$binary" "$prefix/bin/moneyflow"
installed="$prefix/bin/moneyflow"
echo "installed $installed ($("$installed" --version))"

if [ "$shell_name" != none ]; then
  case "$shell_name" in
    bash) target="$prefix/share/bash-completion/completions/moneyflow" ;;
    zsh) target="$prefix/share/zsh/site-functions/_moneyflow" ;;
    fish)
      if [ "$default_prefix" = 1 ]; then target="${XDG_CONFIG_HOME:-$HOME/.config}/fish/completions/moneyflow.fish"
      else target="$prefix/share/fish/vendor_completions.d/moneyflow.fish"; fi ;;
  esac
  mkdir -p "$(dirname "$target")"
  "$installed" --generate-completion-script "$shell_name" > "$target.new"
  mv "$target.new" "$target"
  echo "installed $shell_name completions: $target"
  if [ "$shell_name" = zsh ]; then
    echo "  zsh finds them once that folder is in fpath: add  fpath=($(dirname "$target") \$fpath)  before compinit in ~/.zshrc"
  fi
fi

case ":$PATH:" in
  *":$prefix/bin:"*) echo "moneyflow is on your PATH: try  moneyflow --help" ;;
  *) echo "$prefix/bin is not on your PATH: add  export PATH=\"$prefix/bin:\$PATH\"  to your shell's start-up file" ;;
esac
