#!/usr/bin/env bash
# Set up a Raspberry Pi (Raspberry Pi OS Bookworm) to run the xtraboard as a kiosk service.
#
#   sudo systemd/install.sh             # from a clone of the repository
#   systemd/install.sh --dry-run        # print what it would do, change nothing
#   sudo systemd/install.sh --overlay   # also: read-only root file system, games on their own
#                                       # partition (docs/kiosk.md)
#   sudo systemd/install.sh --wheelhouse DIR   # offline: Python packages from DIR only, no apt-get
#                                       # update (the apt packages must be there already)
#
# Idempotent: run it again after `git pull` to update the code and restart the board.
# It checks everything it can before changing anything (root, apt, systemd as PID 1, Python,
# the clone, with --overlay the partition and raspi-config): when it cannot finish, it says why
# and changes nothing; --dry-run says what a real run would stop on.
# Steps: apt packages, user and groups, code in /opt/xtraboard, its venv, the board description
# in /etc/xtraboard, I2C and SPI, LED driver check, the systemd unit (with the network drop-in
# when the board description has [fleet], the engines' drop-in when it lists [[engines]]), with --overlay the overlay file system, enable and start.
#
# Safe to run as root from anyone's clone: /opt/xtraboard and its venv belong to root and only
# root can write them (the service runs that code; a venv its user could change would run that
# user's code as root at the next install), and pip installs only the versions and hashes pinned
# in requirements/pi.lock.
set -euo pipefail
# Whatever root's umask is, what we create must be readable by the service user.
umask 022

APP=xtraboard
PREFIX=/opt/xtraboard
VENV="$PREFIX/venv"
LOCK=requirements/pi.lock  # in the repository: pinned dependencies with their hashes (./dev lock)
OWNER=root  # of the code and the venv
CONFIG_DIR=/etc/xtraboard
BOARD_CONFIG="$CONFIG_DIR/board.toml"  # the operator's board description: created once, never replaced
UNIT_DIR=/etc/systemd/system
FLEET_DROP_IN=xtraboard-fleet.conf  # in systemd/: opens the network for the MQTT fleet report
ENGINES_DROP_IN=xtraboard-engines.conf  # in systemd/: lets bwrap build the external engines' box
# --overlay: the state directory lives on the ext4 file system with this label (docs/kiosk.md).
STATE_LABEL=xtraboard-state
STATE_DIR=/var/lib/xtraboard
FSTAB=/etc/fstab
APT_PACKAGES=(
    python3 python3-venv python3-dev python3-pip build-essential rsync
    i2c-tools                                                   # i2cdetect, to find the OLED
    libopenjp2-7 libjpeg62-turbo libtiff6 libfreetype6 zlib1g   # Pillow's libraries
    bubblewrap                                                  # bwrap: the box external engines run in
)
# Installed when the archive has them (Raspberry Pi OS does): to build lgpio, gpiozero's pin
# factory, where pip finds no wheel.
OPTIONAL_PACKAGES=(swig liblgpio-dev)
DEVICE_GROUPS=(gpio i2c spi)
BOOT_CONFIGS=(/boot/firmware/config.txt /boot/config.txt)
RASPI_CONFIG=/usr/bin/raspi-config
MODULES_LOAD_DIR=/etc/modules-load.d
SYSTEMD_RUN_DIR=/run/systemd/system  # exists when systemd is PID 1 (sd_booted)
DEVICE_TREE_MODEL=/proc/device-tree/model  # "Raspberry Pi ..." on a Pi
PYTHON_MIN=(3 11)  # pyproject.toml's requires-python
# Not copied to /opt (and not checked): the clone's own tools and what builds leave behind.
COPY_EXCLUDES=(/venv /.venv .git __pycache__ '*.egg-info' /build /.hypothesis /.pytest_cache /.mypy_cache /.ruff_cache)
STEPS=9

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DRY_RUN=0
OVERLAY=0
WHEELHOUSE=""  # --wheelhouse DIR: install offline, Python packages from DIR only
REBOOT_NEEDED=0
step=0

usage() {
    cat <<EOF
Usage: $0 [--dry-run] [--overlay] [--wheelhouse DIR] [--source DIR]

Install the xtraboard firmware as the systemd service '$APP':
  --dry-run     print every command instead of running it (no root needed)
  --overlay     then make the root file system read-only (Raspberry Pi OS's overlay file system)
                with $STATE_DIR on the ext4 partition labelled $STATE_LABEL (docs/kiosk.md)
  --wheelhouse DIR
                install without the internet: the Python packages only from DIR (the files of
                $LOCK, hashes checked), no apt-get update; the apt packages must be installed
                already (it names the missing ones and changes nothing)
  --source DIR  the repository to install (default: $SOURCE)
EOF
}

fail() {
    echo "install.sh: $*" >&2
    exit 1
}

say() {
    step=$((step + 1))
    echo "[$step/$STEPS] $*"
}

# Run a command, or only show it in a dry run.
run() {
    if ((DRY_RUN)); then
        printf '    would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

# Append a line to a file unless it is there already (config.txt, modules-load.d).
add_line() {
    local file="$1" line="$2"
    if [[ -f "$file" ]] && grep -qxF -- "$line" "$file"; then
        echo "    $file already has: $line"
    elif ((DRY_RUN)); then
        echo "    would add to $file: $line"
    else
        printf '%s\n' "$line" >>"$file"
        echo "    added to $file: $line"
        REBOOT_NEEDED=1
    fi
}

# A board description as the firmware reads it, with every file it `extends` merged in (by the
# installed firmware; the file itself where that cannot run, e.g. before the first install).
merged_board() {
    "$VENV/bin/xtraboard" wiring --merged --board "$1" 2>/dev/null || cat "$1"
}

# Whether a board.toml has a [fleet] table (the MQTT report needs the network).
has_fleet() {
    local text
    text="$(merged_board "$1")"
    grep -qE '^[[:space:]]*\[fleet\][[:space:]]*(#.*)?$' <<<"$text"
}

has_engines() {
    local text
    text="$(merged_board "$1")"
    grep -qE '^[[:space:]]*\[\[engines\]\][[:space:]]*(#.*)?$' <<<"$text"
}

# The value of `driver` in the [leds] table of a board.toml (empty if there is none).
led_driver() {
    local text
    text="$(merged_board "$1")"
    awk '/^\[/ { leds = ($0 ~ /^\[leds\]/) }
         leds && /^driver[ \t]*=/ { sub(/#.*/, ""); gsub(/[" \t]/, ""); sub(/^driver=/, ""); print; exit }' <<<"$text"
}

parse_arguments() {
    while (($#)); do
        case "$1" in
            --dry-run) DRY_RUN=1 ;;
            --overlay)
                OVERLAY=1
                STEPS=10
                ;;
            --wheelhouse)
                (($# >= 2)) || fail "--wheelhouse needs a directory (the files of $LOCK)"
                WHEELHOUSE="$(cd "$2" 2>/dev/null && pwd)" || fail "--wheelhouse: no directory $2"
                shift
                ;;
            --source)
                (($# >= 2)) || fail "--source needs a directory"
                SOURCE="$(cd "$2" 2>/dev/null && pwd)" || fail "--source: no directory $2"
                shift
                ;;
            -h | --help)
                usage
                exit 0
                ;;
            *)
                echo "install.sh: unknown option $1" >&2
                usage >&2
                exit 2
                ;;
        esac
        shift
    done
}

# The `find` arguments that leave out COPY_EXCLUDES under $SOURCE (what rsync does not copy).
excluded_paths() {
    local pattern
    for pattern in "${COPY_EXCLUDES[@]}"; do
        if [[ "$pattern" == /* ]]; then
            printf '%s\0' -path "$SOURCE$pattern" -prune -o
        else
            printf '%s\0' -name "$pattern" -prune -o
        fi
    done
}

# What in the clone must not reach /opt (empty if nothing): a symbolic link leading out of the
# clone (the service, and pip running as root, would follow it to whatever it names), or a file
# or folder others may not read (made readable for the service's user it would expose a secret;
# left private the service could not read it).
unfit_source() {
    local args=() entry target root
    root="$(cd "$SOURCE" && pwd -P)"  # links resolve to physical paths
    mapfile -d '' args < <(excluded_paths)
    while IFS= read -r -d '' entry; do
        target="$(readlink -f -- "$entry" 2>/dev/null || true)"
        if [[ -z "$target" || ( "$target" != "$root" && "$target" != "$root"/* ) ]]; then
            echo "$entry is a symbolic link leading out of the clone (to $(readlink -- "$entry")): remove it"
            return
        fi
    done < <(find "$SOURCE" "${args[@]}" -type l -print0 2>/dev/null)
    entry="$(find "$SOURCE" "${args[@]}" \( -type f ! -perm -o=r -o -type d ! -perm -o=rx \) -print -quit 2>/dev/null)"
    if [[ -n "$entry" ]]; then
        echo "$entry is private (mode $(stat -c %a -- "$entry")): the service's user could not read it once installed, and making it readable in $PREFIX would expose it; chmod o+rX it if it belongs to the board, else move it out of the clone"
    fi
}

# Whether python3 (if there is one yet; apt installs it) is at least PYTHON_MIN.
python_too_old() {
    command -v python3 >/dev/null &&
        ! python3 -c "import sys; sys.exit(sys.version_info < (${PYTHON_MIN[0]}, ${PYTHON_MIN[1]}))" 2>/dev/null
}

# Whether this is a Raspberry Pi (its device tree says so, or Raspberry Pi OS's raspi-config is
# there); plain Debian on a PC, a VM or a container is not, and the Pi-only steps are skipped.
on_raspberry_pi() {
    [[ -x "$RASPI_CONFIG" ]] || grep -qa "Raspberry Pi" "$DEVICE_TREE_MODEL" 2>/dev/null
}

# Whether a Debian package is installed (dpkg's status "install ok installed").
package_installed() {
    [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == "install ok installed" ]]
}

# The APT_PACKAGES that are not installed, separated by spaces (empty if none).
missing_packages() {
    local package missing=()
    for package in "${APT_PACKAGES[@]}"; do
        package_installed "$package" || missing+=("$package")
    done
    echo "${missing[*]}"
}

# Whether the root is Raspberry Pi OS's read-only overlay (raspi-config's boot=overlay).
KERNEL_CMDLINE=/proc/cmdline
read_only_overlay() {
    [[ "$(findmnt -n -o FSTYPE / 2>/dev/null || true)" == overlay ]] && grep -qw "boot=overlay" "$KERNEL_CMDLINE" 2>/dev/null
}

# Every reason this run could not finish, one a line, found before anything is changed.
problems() {
    [[ -f "$SOURCE/pyproject.toml" && -d "$SOURCE/firmware" ]] ||
        echo "$SOURCE is not an xtraboard repository (no pyproject.toml and firmware/)"
    [[ -f "$SOURCE/systemd/$APP.service" ]] || echo "missing $SOURCE/systemd/$APP.service"
    [[ -f "$SOURCE/$LOCK" ]] || echo "missing $SOURCE/$LOCK (the pinned dependencies)"
    ((DRY_RUN)) || ((EUID == 0)) || echo "must run as root (it installs packages, a user and a service): sudo $0"
    command -v apt-get >/dev/null || echo "apt-get not found: this installer is for Raspberry Pi OS / Debian"
    # The service is a systemd unit: without systemd as PID 1 (a container, a chroot) the last
    # steps would fail after the packages, the user, the venv and config.txt were changed.
    [[ -d "$SYSTEMD_RUN_DIR" ]] && command -v systemctl >/dev/null ||
        echo "systemd is not running as PID 1 here (no $SYSTEMD_RUN_DIR): the board runs as a systemd service; install on the Pi itself, booted normally"
    ! python_too_old || echo "python3 is $(python3 -V 2>&1 | cut -d' ' -f2); the firmware needs ${PYTHON_MIN[0]}.${PYTHON_MIN[1]} or newer (Raspberry Pi OS Bookworm)"
    # Under the overlay every change is lost at the next boot: say so instead of pretending.
    # Raspberry Pi OS's overlay is the kernel's boot=overlay (as raspi-config tells it); another
    # overlay root (a container's throw-away copy) keeps what is written for as long as it lives.
    ! read_only_overlay ||
        echo "the root file system is the read-only overlay: disable it first (sudo raspi-config nonint do_overlayfs 1, reboot), then install (docs/kiosk.md)"
    if [[ "$SOURCE" == "$PREFIX" && -n "$(not_owners "$PREFIX")" ]]; then
        echo "$PREFIX is the repository and not $OWNER's alone ($(not_owners "$PREFIX")): clone it elsewhere and run install.sh from there"
    fi
    [[ "$SOURCE" == "$PREFIX" || ! -d "$SOURCE" ]] || unfit_source
    if [[ -n "$WHEELHOUSE" ]]; then
        local missing
        missing="$(missing_packages)"
        [[ -z "$missing" ]] ||
            echo "--wheelhouse installs offline, but these apt packages are not installed: $missing (install them first: apt-get install $missing)"
        compgen -G "$WHEELHOUSE/*.whl" >/dev/null || compgen -G "$WHEELHOUSE/*.tar.gz" >/dev/null ||
            echo "--wheelhouse $WHEELHOUSE has no wheels or sdists (it must hold the files of $LOCK: pip download --require-hashes -r $LOCK -d DIR)"
    fi
    if ((OVERLAY)); then
        local device mounted
        device="$(blkid -L "$STATE_LABEL" 2>/dev/null || true)"
        if [[ -z "$device" ]]; then
            echo "no file system labelled $STATE_LABEL: make one first (docs/kiosk.md: mkfs.ext4 -L $STATE_LABEL /dev/...)"
        elif mountpoint -q "$STATE_DIR" 2>/dev/null; then
            mounted="$(findmnt -n -o SOURCE "$STATE_DIR" 2>/dev/null || true)"
            [[ -z "$mounted" || "$(readlink -f -- "$mounted")" == "$(readlink -f -- "$device")" ]] ||
                echo "$STATE_DIR is mounted from $mounted, not from the partition labelled $STATE_LABEL ($device): unmount it first"
        fi
        [[ -x "$RASPI_CONFIG" ]] || echo "raspi-config not found: the overlay file system needs Raspberry Pi OS (docs/kiosk.md)"
    fi
}

check_preconditions() {
    local found=()
    mapfile -t found < <(problems)
    if ((DRY_RUN)); then
        echo "Dry run: nothing is changed. Installing from $SOURCE"
        local problem
        for problem in "${found[@]}"; do
            echo "    WARNING: a real run would stop before changing anything: $problem" >&2
        done
        return
    fi
    if ((${#found[@]})); then
        printf 'install.sh: %s\n' "${found[@]}" >&2
        fail "nothing was changed"
    fi
}

install_packages() {
    say "apt packages: ${APT_PACKAGES[*]}"
    local packages=("${APT_PACKAGES[@]}") package
    if [[ -n "$WHEELHOUSE" ]]; then
        # Offline: the check before made sure every one is installed; nothing to fetch.
        echo "    offline (--wheelhouse): all installed, kept; no apt-get update"
        for package in "${OPTIONAL_PACKAGES[@]}"; do
            package_installed "$package" && echo "    $package is installed: kept" ||
                echo "    $package is not installed: skipped (offline)"
        done
        return
    fi
    run apt-get update
    for package in "${OPTIONAL_PACKAGES[@]}"; do
        if apt-cache show "$package" >/dev/null 2>&1; then
            packages+=("$package")
        else
            echo "    $package is not in the package archive: skipped"
        fi
    done
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}"
}

create_user() {
    say "user '$APP' and groups ${DEVICE_GROUPS[*]}"
    # The unit's SupplementaryGroups= must exist, Pi or not; elsewhere no device carries them.
    on_raspberry_pi ||
        echo "    not a Raspberry Pi: groups ${DEVICE_GROUPS[*]} are made if missing, but no device here belongs to them"
    local group groups
    groups="$(IFS=,; echo "${DEVICE_GROUPS[*]}")"
    for group in "${DEVICE_GROUPS[@]}"; do
        if getent group "$group" >/dev/null; then
            echo "    group $group exists"
        else
            run groupadd --system "$group"
        fi
    done
    if getent passwd "$APP" >/dev/null; then
        echo "    user $APP exists"
        run usermod --append --groups "$groups" "$APP"
    else
        run useradd --system --user-group --home-dir "/var/lib/$APP" --no-create-home \
            --shell /usr/sbin/nologin --comment "xtraboard board" --groups "$groups" "$APP"
    fi
}

# The first file under $1 that someone other than $OWNER owns or could write (empty if none).
not_owners() {
    find "$1" \( ! -user "$OWNER" -o \( ! -type l -perm /022 \) \) -print -quit 2>/dev/null
}

copy_code() {
    say "code in $PREFIX, owned by $OWNER"
    if [[ "$SOURCE" == "$PREFIX" ]]; then
        [[ -z "$(not_owners "$PREFIX")" ]] ||
            fail "$PREFIX is the repository and not $OWNER's alone ($(not_owners "$PREFIX")): clone it elsewhere and run install.sh from there"
        echo "    the repository is $PREFIX itself: nothing to copy"
        return
    fi
    run install -d -o "$OWNER" -g "$OWNER" -m 0755 "$PREFIX"
    # The clone's owner must not own the copy the service runs: --chown gives it to root,
    # --chmod takes write access from everyone else. --delete keeps the copy exact; the venv
    # inside PREFIX is not ours to delete.
    # --safe-links leaves out a link leading out of the clone (the check before refused them):
    # the copy must not lead root's pip or the service to files the clone's owner chose.
    # --chmod only takes write access away: a file the clone keeps private stays private (the
    # check refused them too, as the service could not read them).
    local excludes=() pattern
    for pattern in "${COPY_EXCLUDES[@]}"; do
        excludes+=("--exclude=$pattern")
    done
    run rsync -a --delete --safe-links --chown="$OWNER:$OWNER" --chmod=go-w "${excludes[@]}" "$SOURCE/" "$PREFIX/"
}

install_venv() {
    say "virtual environment $VENV, owned by $OWNER, from $LOCK"
    local stranger
    if [[ -x "$VENV/bin/python" ]]; then
        stranger="$(not_owners "$VENV")"
        if [[ -n "$stranger" ]]; then
            # Someone else could have changed it: do not run its pip as root, start over.
            echo "    $VENV is not $OWNER's alone ($stranger): made anew"
            run rm -rf "$VENV"
            run python3 -m venv "$VENV"
        else
            echo "    $VENV exists"
        fi
    else
        run python3 -m venv "$VENV"
    fi
    # No pip self-upgrade: that would be an unpinned download run as root. Bookworm's pip
    # checks hashes. Every dependency at its pinned version, each file checked against its hash:
    local offline=()
    if [[ -n "$WHEELHOUSE" ]]; then
        # Offline: only the files in the wheelhouse, each still checked against the lock's hash.
        offline=(--no-index --find-links "$WHEELHOUSE")
        echo "    offline: from $WHEELHOUSE only"
    fi
    run "$VENV/bin/pip" install --quiet "${offline[@]}" --require-hashes -r "$PREFIX/$LOCK"
    # The project itself, not editable (the service runs the installed copy, so a half-edited
    # clone cannot break it), with no further dependencies and the pinned setuptools. Its build
    # compiles the translation catalogs (build_hooks.py, with the pinned Babel), so the board
    # reads compiled .mo files and never compiles at run time.
    # setuptools builds in the tree and packs what an earlier build left in build/: a module deleted
    # upstream would come back in the new wheel. Each install builds from nothing.
    run rm -rf "$PREFIX/build" "$PREFIX/$APP.egg-info"
    run "$VENV/bin/pip" install --quiet "${offline[@]}" --no-deps --no-build-isolation --force-reinstall "$PREFIX"
    run rm -rf "$PREFIX/build" "$PREFIX/$APP.egg-info"
}

# The operator's code (docs/kiosk.md): `xtraboard operator set-code` keeps a salted hash here.
# root:xtraboard 0640: the board reads it; guests, engines and other users cannot.
OPERATOR_CODE="$CONFIG_DIR/operator-code"
install_operator_code() {
    if [[ -e "$OPERATOR_CODE" ]] || ((DRY_RUN)); then
        run chown "root:$APP" "$OPERATOR_CODE"
        run chmod 0640 "$OPERATOR_CODE"
    fi
    [[ -e "$OPERATOR_CODE" ]] ||
        echo "    no operator code yet (no operator menu): sudo $VENV/bin/xtraboard operator set-code writes $OPERATOR_CODE"
}

install_board_config() {
    say "board description $BOARD_CONFIG"
    if [[ -e "$BOARD_CONFIG" ]]; then
        echo "    $BOARD_CONFIG exists: kept (it is the operator's; the shipped default is $PREFIX/hardware/board.toml)"
        return
    fi
    # The same file the wheel ships as the default; the firmware finds it here with no --board.
    run install -d -o root -g root -m 0755 "$CONFIG_DIR"
    run install -o root -g root -m 0644 "$PREFIX/hardware/board.toml" "$BOARD_CONFIG"
}

enable_buses() {
    say "I2C and SPI"
    if [[ -x "$RASPI_CONFIG" ]]; then
        # 0 means "enable" to raspi-config; both are no-ops when already on.
        run "$RASPI_CONFIG" nonint do_i2c 0
        run "$RASPI_CONFIG" nonint do_spi 0
        return
    fi
    local config="" candidate
    for candidate in "${BOOT_CONFIGS[@]}"; do
        if [[ -f "$candidate" ]]; then
            config="$candidate"
            break
        fi
    done
    if [[ -z "$config" ]]; then
        if on_raspberry_pi; then
            echo "    no raspi-config and no config.txt: enable I2C and SPI by hand (dtparam=i2c_arm=on, dtparam=spi=on)." >&2
        else
            echo "    not a Raspberry Pi (plain Debian): skipped raspi-config, config.txt (dtparam=i2c_arm, spi) and $MODULES_LOAD_DIR/$APP.conf (i2c-dev)"
        fi
        return
    fi
    add_line "$config" "dtparam=i2c_arm=on"
    add_line "$config" "dtparam=spi=on"
    add_line "$MODULES_LOAD_DIR/$APP.conf" "i2c-dev"
}

check_led_driver() {
    local board="$BOARD_CONFIG" driver
    [[ -f "$board" ]] || board="$PREFIX/hardware/board.toml"
    [[ -f "$board" ]] || board="$SOURCE/hardware/board.toml"
    say "LED driver in $board"
    driver="$(led_driver "$board" 2>/dev/null || true)"
    case "$driver" in
        spi) echo "    driver \"spi\" (GPIO10, /dev/spidev0.0): works for the unprivileged service" ;;
        pwm)
            echo "    WARNING: leds.driver = \"pwm\" needs root (/dev/mem) but the service runs as '$APP':" >&2
            echo "    the board will play without LEDs. Wire LED data to GPIO10 and set driver = \"spi\"." >&2
            ;;
        *) echo "    WARNING: could not read leds.driver from $board; expected \"spi\"" >&2 ;;
    esac
}

install_unit() {
    say "systemd unit $UNIT_DIR/$APP.service"
    run install -o root -g root -m 0644 "$SOURCE/systemd/$APP.service" "$UNIT_DIR/$APP.service"
    local board="$BOARD_CONFIG" drop_in="$UNIT_DIR/$APP.service.d/fleet.conf"
    [[ -f "$board" ]] || board="$SOURCE/hardware/board.toml"
    if has_fleet "$board"; then
        echo "    $board has [fleet]: the board may connect out to its MQTT broker (nothing listens)"
        run install -d -o root -g root -m 0755 "$UNIT_DIR/$APP.service.d"
        run install -o root -g root -m 0644 "$SOURCE/systemd/$FLEET_DROP_IN" "$drop_in"
    elif [[ -e "$drop_in" ]]; then
        echo "    $board has no [fleet]: the network is closed again"
        run rm -f "$drop_in"
    else
        echo "    no [fleet] in $board: no network"
    fi
    drop_in="$UNIT_DIR/$APP.service.d/engines.conf"
    if has_engines "$board"; then
        echo "    $board lists [[engines]]: bwrap may build their box (namespaces, mounts)"
        run install -d -o root -g root -m 0755 "$UNIT_DIR/$APP.service.d"
        run install -o root -g root -m 0644 "$SOURCE/systemd/$ENGINES_DROP_IN" "$drop_in"
    elif [[ -e "$drop_in" ]]; then
        echo "    $board lists no [[engines]]: namespaces are closed again"
        run rm -f "$drop_in"
    fi
    run systemctl daemon-reload
}

start_service() {
    say "enable and start $APP"
    run systemctl enable "$APP.service"
    if ((REBOOT_NEEDED)); then
        echo "    reboot to start the board (sudo reboot): what was just enabled (I2C/SPI, the overlay) takes effect then"
    else
        run systemctl restart "$APP.service"
    fi
}

# --overlay: games on a writable partition of their own, then the read-only root (docs/kiosk.md).
setup_overlay() {
    say "read-only root file system (overlay), $STATE_DIR on the partition labelled $STATE_LABEL"
    local device
    device="$(blkid -L "$STATE_LABEL" 2>/dev/null || true)"
    if [[ -z "$device" ]]; then  # check_preconditions stopped a real run already
        echo "    WARNING: no file system labelled $STATE_LABEL yet (docs/kiosk.md): a real run stops before any change" >&2
    else
        echo "    $STATE_LABEL is $device"
    fi
    # Written before the overlay is on: afterwards changes to /etc would vanish at the next boot.
    # commit=1: ext4 commits its journal every second (SQLite syncs its own writes anyway).
    # nofail: a missing stick must not stop the Pi booting; the board, which requires the mount
    # (StateDirectory=), then does not start rather than keep its games in RAM.
    add_line "$FSTAB" "LABEL=$STATE_LABEL $STATE_DIR ext4 defaults,noatime,commit=1,nofail,x-systemd.device-timeout=10s 0 2"
    run install -d -o "$APP" -g "$APP" -m 0700 "$STATE_DIR"
    # The update path (docs/kiosk.md): after the reboot with the overlay off, fstab has mounted
    # the partition already, and a second mount would fail. Mount only what is not mounted.
    if mountpoint -q "$STATE_DIR" 2>/dev/null; then
        echo "    $STATE_DIR is mounted already ($(findmnt -n -o SOURCE "$STATE_DIR" 2>/dev/null || echo "?")): kept"
    else
        # Games already kept on the root file system move to the partition with the board stopped.
        run systemctl stop "$APP.service"
        local old="${TMPDIR:-/tmp}/tmp.XXXXXXXXXX"  # shown in a dry run; mktemp makes it
        ((DRY_RUN)) || old="$(mktemp -d)"
        run cp -a "$STATE_DIR/." "$old/"
        run mount "$STATE_DIR"
        run cp -an "$old/." "$STATE_DIR/"
        run chown -R "$APP:$APP" "$STATE_DIR"
        run chmod 0700 "$STATE_DIR"
        run rm -rf "$old"
    fi
    # 0 means "enable"; the overlay takes effect at the next boot.
    run "$RASPI_CONFIG" nonint do_overlayfs 0
    REBOOT_NEEDED=1  # start_service then leaves the start to the reboot
}

main() {
    parse_arguments "$@"
    check_preconditions
    install_packages
    create_user
    copy_code
    install_venv
    install_board_config
    install_operator_code  # (part of the board description's step)
    enable_buses
    check_led_driver
    install_unit
    if ((OVERLAY)); then
        setup_overlay
    fi
    start_service
    echo "Done. Status: systemctl status $APP   Log: journalctl -u $APP -f"
}

# Sourcing the file (tests) defines the functions without running anything.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
