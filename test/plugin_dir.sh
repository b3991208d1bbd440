# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced, not run: by the tools tests that load our drivers into a stock DPDK
# application with -d. EAL refuses a plugin path that is world-writable or
# under a world-writable directory (a checkout in /tmp): safe_plugin_dir
# sets plugin_dir to the directory itself when EAL takes it, otherwise to
# a private copy of its libraries, which remove_plugin_copy removes (call
# it in an EXIT trap). Not in a subshell: the copy's name must survive.

plugin_dir=
plugin_copy=

safe_plugin_dir() { # <drivers dir>
	plugin_dir=$(cd "$1" && pwd)
	_d=$plugin_dir
	_insecure=
	while [ "$_d" != "/" ]; do
		if [ -n "$(find "$_d" -maxdepth 0 -perm -0002)" ]; then
			_insecure=$_d
		fi
		_d=$(dirname "$_d")
	done
	[ -z "$_insecure" ] && return 0
	plugin_copy="${HOME:-/root}/.cache/mlx5-plugins.$$"
	mkdir -p "$plugin_copy" && chmod 700 "$plugin_copy"
	# Libraries and their links only, not the build's *.so.*.p folders.
	for _f in "$plugin_dir"/*.so*; do
		[ -d "$_f" ] || cp -P "$_f" "$plugin_copy"/
	done
	plugin_dir=$plugin_copy
}

remove_plugin_copy() {
	if [ -n "$plugin_copy" ]; then
		rm -rf "$plugin_copy"
	fi
}
