#!/usr/bin/env bash
# Builds the SQLite library hotpath runs on: sqlite-jdbc's own JNI glue (NativeDB.c, from the driver's
# sources jar, unpacked by Maven into GLUE_DIR) and the SQLite amalgamation of the driver's SQLite
# version, compiled with this machine's C compiler and the compile-time options of the driver's own
# build. The library the driver bundles is the same code built with gcc 4.1.2 (2008) at -Os; this
# build (the machine's gcc, -O2) made the social API's closed-loop mix 0.855x the server CPU per request
# (docs/BENCHMARKS.md).
#
#   build-sqlite.sh GLUE_DIR DRIVER_JAR DRIVER_VERSION OUT_DIR
#
# Writes OUT_DIR/PLATFORM/libsqlitejdbc.so (PLATFORM: linux-x86_64 or linux-aarch64), which
# dev.hotpath.store.SqliteLibrary hands to the driver at startup. Without a C compiler, or on another
# platform, it writes nothing and says so (as without curl and nothing cached): hotpath then runs on
# the driver's bundled build. Any other failure (download, checksum, a driver whose native methods
# changed, a library the driver cannot load: LoadCheck.java) fails the build.
#
# The amalgamation comes from the npm tarball of better-sqlite3, which ships it, checked against its
# pinned integrity hash. The result is cached in ~/.cache/hotpath (a compile takes about a minute),
# keyed by everything that goes into it; an entry no build used for 30 days is removed.
set -euo pipefail

if [[ $# -ne 4 ]]; then
    echo "usage: $0 GLUE_DIR DRIVER_JAR DRIVER_VERSION OUT_DIR" >&2
    exit 2
fi
glue=$1 driver_jar=$2 driver_version=$3 out=$4

# better-sqlite3 13.2.0 ships SQLite 3.54.1, the version of the sqlite-jdbc release the build uses.
tarball_url=https://registry.npmjs.org/better-sqlite3/-/better-sqlite3-13.2.0.tgz
tarball_sha512=67c43ff71fee3722b1035bf814da1dc88b51551c354de281ae68f7d89871851d1c78d70163ec0ca1bb7f06fecced3cf03c05e39d946d35a12c0139d465229665
# The options sqlite-jdbc's build compiles SQLite with (its pragma compile_options), so that the
# library behaves as the bundled one does and differs only in how it is compiled.
options=(
    -DSQLITE_CORE -DSQLITE_THREADSAFE=1 -DSQLITE_DEFAULT_MEMSTATUS=0 -DSQLITE_TEMP_STORE=1
    -DSQLITE_DEFAULT_FILE_PERMISSIONS=0666 -DSQLITE_HAVE_ISNAN -DHAVE_USLEEP
    -DSQLITE_ENABLE_LOAD_EXTENSION=1 -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_FTS3
    -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_STAT4
    -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_PERCENTILE
    -DSQLITE_ENABLE_UPDATE_DELETE_LIMIT -DSQLITE_MAX_VARIABLE_NUMBER=250000
    -DSQLITE_MAX_MMAP_SIZE=1099511627776 -DSQLITE_MAX_LENGTH=2147483647 -DSQLITE_MAX_COLUMN=32767
    -DSQLITE_MAX_SQL_LENGTH=1073741824 -DSQLITE_MAX_FUNCTION_ARG=127 -DSQLITE_MAX_ATTACHED=125
    -DSQLITE_MAX_PAGE_COUNT=4294967294
)
# -O2: -O3 measured no better on the social mix, by round (docs/BENCHMARKS.md). No -march=native: the jar
# must run on any CPU of its architecture. SQLITE_API exports SQLite's C API besides the JNI entry
# points, for dev.hotpath.store.RowQuery, which calls it through the JDK's foreign-function API;
# -fvisibility=hidden keeps SQLite's internals out of the library's symbols. Calls to the exported API
# from inside the library stay direct, not through the PLT: -fno-semantic-interposition for SQLite's
# own, -Bsymbolic-functions for the JNI glue's (hidden symbols made 0.923x and 0.905x the CPU per
# request by round in two runs of the social mix, when only the JNI entry points were exported).
cflags=(-O2 -fPIC -shared -fvisibility=hidden -fno-semantic-interposition -Wl,-Bsymbolic-functions)
api_visible='-DSQLITE_API=__attribute__((visibility("default")))'

warn() { echo "hotpath: $*; hotpath will run on sqlite-jdbc's bundled SQLite build" >&2; }

case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x86_64 ;;
    Linux-aarch64) platform=linux-aarch64 ;;
    *) warn "no SQLite build of its own for $(uname -s)-$(uname -m)"; exit 0 ;;
esac
# A library an earlier build left would otherwise ship beside a driver it was not built for.
rm -f "$out/$platform/libsqlitejdbc.so"
cc=${CC:-cc}
if ! command -v "$cc" >/dev/null 2>&1 || ! printf '#include <stdio.h>\nint main(void){return 0;}\n' \
        | "$cc" -x c -o /dev/null - >/dev/null 2>&1; then
    warn "no working C compiler ($cc; on Debian: apt-get install gcc libc6-dev)"
    exit 0
fi
javac=${JAVA_HOME:?JAVA_HOME must point at the JDK}/bin/javac
javap=$JAVA_HOME/bin/javap

work=$(mktemp -d)
staged=
trap 'rm -rf "$work" ${staged:+"$staged"}' EXIT

# The glue must match the driver's Java side: the sources jar may be of another release (the
# driver's own is not published), so its native methods are compared with the driver's, signature by
# signature, and the header the glue includes is generated from them.
"$javac" -h "$work/include" -cp "$driver_jar" -d "$work/classes" "$glue/org/sqlite/core/NativeDB.java"
natives() { "$javap" -p -cp "$1" org.sqlite.core.NativeDB | grep ' native ' | sort; }
if ! diff <(natives "$work/classes") <(natives "$driver_jar") >"$work/natives.diff"; then
    echo "hotpath: the JNI glue in $glue does not match the native methods of $driver_jar:" >&2
    cat "$work/natives.diff" >&2
    echo "pin sqlite-jdbc.glue.version (pom.xml) to a sources jar of a matching release" >&2
    exit 1
fi
cp "$work/include/org_sqlite_core_NativeDB.h" "$work/include/NativeDB.h"

key=$( { cat "$0" "$glue/org/sqlite/core/NativeDB.c"; natives "$driver_jar"; echo "$driver_version"; "$cc" --version; } \
    | sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-${HOME:?neither XDG_CACHE_HOME nor HOME is set}/.cache}/hotpath/sqlite-$platform-$key
library=$cache/libsqlitejdbc.so
if [[ ! -f $library ]]; then
    if ! command -v curl >/dev/null 2>&1; then
        warn "no curl to fetch the SQLite amalgamation (on Debian: apt-get install curl)"
        exit 0
    fi
    echo "hotpath: building SQLite for $platform (about a minute, once: cached in $cache)" >&2
    curl -fsSL --retry 3 -o "$work/sqlite.tgz" "$tarball_url"
    actual=$(sha512sum "$work/sqlite.tgz" | cut -d' ' -f1)
    if [[ $actual != "$tarball_sha512" ]]; then
        echo "hotpath: $tarball_url does not have the pinned sha512 (got $actual)" >&2
        exit 1
    fi
    tar -xzf "$work/sqlite.tgz" -C "$work" package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
    amalgamation=$work/package/deps/sqlite3
    sqlite=$(sed -n 's/^#define SQLITE_VERSION *"\(.*\)"/\1/p' "$amalgamation/sqlite3.h")
    if [[ ${driver_version%.*} != "$sqlite" ]]; then
        echo "hotpath: the amalgamation is SQLite $sqlite, the driver $driver_version: pin a tarball of the driver's SQLite" >&2
        exit 1
    fi
    "$cc" "${cflags[@]}" "$api_visible" "${options[@]}" -I"$amalgamation" -I"$work/include" -I"$JAVA_HOME/include" \
        -I"$JAVA_HOME/include/linux" "$glue/org/sqlite/core/NativeDB.c" "$amalgamation/sqlite3.c" \
        -o "$work/libsqlitejdbc.so" -lpthread -ldl -lm
    if ! "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Dorg.sqlite.lib.path="$work" \
            -Dorg.sqlite.lib.name=libsqlitejdbc.so -cp "$driver_jar" "$(dirname "$0")/LoadCheck.java" \
            "$work/libsqlitejdbc.so"; then
        echo "hotpath: the new SQLite build does not load under $driver_jar (see above)" >&2
        exit 1
    fi
    mkdir -p "$(dirname "$cache")"
    staged=$(mktemp -d "$(dirname "$cache")/.sqlite-XXXXXX")
    mv "$work/libsqlitejdbc.so" "$staged/"
    mv -T "$staged" "$cache" 2>/dev/null || rm -rf "$staged" # another build got there first: same bytes
    staged=
fi
mkdir -p "$out/$platform"
cp "$library" "$out/$platform/libsqlitejdbc.so"

# Each build marks the entry it used; entries of other inputs (an older gcc, an earlier version of
# this script) go once unused for 30 days, so a checkout still on an older version keeps its own.
touch "$library"
find "$(dirname "$cache")" -mindepth 2 -maxdepth 2 -path "*/sqlite-$platform-*/libsqlitejdbc.so" -mtime +30 \
    -exec sh -c 'rm -rf "$(dirname "$1")"' prune {} \;
