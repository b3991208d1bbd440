# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced, not run: the command-line convention of every script of
# devtools/ and test/ (devtools/README). Each takes `--build-dir DIR` (a
# meson build folder, default `build`, relative to the repository root)
# and `--help` (its usage, exit 0); anything it does not know prints the
# usage on stderr and exits 2. The usage is the script's header comment.

# cli_usage SCRIPT: the header comment of SCRIPT, without the comment marks.
cli_usage() {
	sed -n '2,/^[^#]/{/^#/!d;/SPDX-License-Identifier/d;s/^# \{0,1\}//;p;}' "$1"
}

# cli_bad SCRIPT ARG: an unknown argument: the usage on stderr, exit 2.
cli_bad() {
	echo "${1##*/}: unknown argument: $2" >&2
	cli_usage "$1" >&2
	exit 2
}

# cli_dir ROOT DIR: DIR made absolute (a relative DIR is under ROOT).
cli_dir() {
	case $2 in
	/*) echo "$2" ;;
	*) echo "$1/$2" ;;
	esac
}

# cli_keep ARG: ARG appended to CLI_REST, quoted for eval.
cli_keep() {
	CLI_REST="$CLI_REST '$(printf '%s' "$1" | sed "s/'/'\\\\''/g")'"
}

# cli_parse SCRIPT SPEC [ARG...]: the whole command line of a script whose
# options are --build-dir, --help and those of SPEC, a space-separated
# list of names, "--name" for a flag (sets cli_name=1) or "--name:" for an
# option taking a value (sets cli_name=VALUE; a dash in the name becomes
# an underscore). Sets CLI_BUILD_DIR: --build-dir's value, else its value
# on entry, else "build"; and CLI_BUILD, that folder as an absolute path (a
# relative one is under the repository root, the folder above SCRIPT's).
# What follows "--" is kept, quoted, in CLI_REST: `eval "set -- $CLI_REST"`
# gives it back as arguments. A SPEC holding the word "ARGS" also takes
# arguments that are not options (not starting with "-"), kept in CLI_REST
# the same way.
cli_parse() {
	_script=$1
	_spec=$2
	shift 2
	CLI_BUILD_DIR=${CLI_BUILD_DIR:-build}
	CLI_REST=
	while [ $# -gt 0 ]; do
		case $1 in
		--)
			shift
			for _a in "$@"; do
				cli_keep "$_a"
			done
			break ;;
		--build-dir)
			CLI_BUILD_DIR=${2:?--build-dir needs a folder}
			shift 2
			continue ;;
		--help)
			cli_usage "$_script"
			exit 0 ;;
		esac
		_known=
		for _o in $_spec; do
			_name=${_o%:}
			[ "$1" = "$_name" ] || continue
			_var=cli_$(echo "${_name#--}" | tr - _)
			if [ "$_o" != "$_name" ]; then
				[ $# -ge 2 ] || cli_bad "$_script" "$1 (needs a value)"
				eval "$_var=\$2"
				shift
			else
				eval "$_var=1"
			fi
			_known=1
			break
		done
		if [ -z "$_known" ]; then
			case " $_spec :$1" in
			*" ARGS "*:[!-]*)
				cli_keep "$1" ;;
			*) cli_bad "$_script" "$1" ;;
			esac
		fi
		shift
	done
	CLI_BUILD=$(cli_dir "$(cd "$(dirname "$_script")/.." && pwd)" \
		"$CLI_BUILD_DIR")
}
