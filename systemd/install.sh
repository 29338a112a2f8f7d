#!/usr/bin/env bash
# Set up a Raspberry Pi (Raspberry Pi OS Bookworm) to run the xtraboard as a kiosk service.
#
#   sudo systemd/install.sh             # from a clone of the repository
#   systemd/install.sh --dry-run        # print what it would do, change nothing
#
# Idempotent: run it again after `git pull` to update the code and restart the board.
# Steps: apt packages, user and groups, code in /opt/xtraboard, its venv, I2C and SPI,
# LED driver check, the systemd unit, enable and start.
set -euo pipefail

APP=xtraboard
PREFIX=/opt/xtraboard
VENV="$PREFIX/venv"
UNIT_DIR=/etc/systemd/system
APT_PACKAGES=(
    python3 python3-venv python3-dev python3-pip build-essential rsync
    i2c-tools                                                   # i2cdetect, to find the OLED
    libopenjp2-7 libjpeg62-turbo libtiff6 libfreetype6 zlib1g   # Pillow's libraries
)
# Installed when the archive has them (Raspberry Pi OS does): to build lgpio, gpiozero's pin
# factory, where pip finds no wheel.
OPTIONAL_PACKAGES=(swig liblgpio-dev)
DEVICE_GROUPS=(gpio i2c spi)
BOOT_CONFIGS=(/boot/firmware/config.txt /boot/config.txt)
RASPI_CONFIG=/usr/bin/raspi-config
MODULES_LOAD_DIR=/etc/modules-load.d
STEPS=8

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DRY_RUN=0
REBOOT_NEEDED=0
step=0

usage() {
    cat <<EOF
Usage: $0 [--dry-run] [--source DIR]

Install the xtraboard firmware as the systemd service '$APP':
  --dry-run     print every command instead of running it (no root needed)
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

# The value of `driver` in the [leds] table of a board.toml (empty if there is none).
led_driver() {
    awk '/^\[/ { leds = ($0 ~ /^\[leds\]/) }
         leds && /^driver[ \t]*=/ { sub(/#.*/, ""); gsub(/[" \t]/, ""); sub(/^driver=/, ""); print; exit }' "$1"
}

parse_arguments() {
    while (($#)); do
        case "$1" in
            --dry-run) DRY_RUN=1 ;;
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

check_preconditions() {
    [[ -f "$SOURCE/pyproject.toml" && -d "$SOURCE/firmware" ]] ||
        fail "$SOURCE is not an xtraboard repository (no pyproject.toml and firmware/)"
    [[ -f "$SOURCE/systemd/$APP.service" ]] || fail "missing $SOURCE/systemd/$APP.service"
    if ((DRY_RUN)); then
        echo "Dry run: nothing is changed. Installing from $SOURCE"
        return
    fi
    ((EUID == 0)) || fail "must run as root (it installs packages, a user and a service): sudo $0"
    command -v apt-get >/dev/null || fail "apt-get not found: this installer is for Raspberry Pi OS / Debian"
}

install_packages() {
    say "apt packages: ${APT_PACKAGES[*]}"
    run apt-get update
    local packages=("${APT_PACKAGES[@]}") package
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

copy_code() {
    say "code in $PREFIX"
    if [[ "$SOURCE" == "$PREFIX" ]]; then
        echo "    the repository is $PREFIX itself: nothing to copy"
        return
    fi
    run mkdir -p "$PREFIX"
    # --delete keeps the copy exact; the venv inside PREFIX is not ours to delete.
    run rsync -a --delete --exclude=/venv --exclude=/.venv --exclude=.git --exclude=__pycache__ \
        --exclude='*.egg-info' --exclude=/build "$SOURCE/" "$PREFIX/"
}

install_venv() {
    say "virtual environment $VENV with xtraboard[pi]"
    if [[ -x "$VENV/bin/python" ]]; then
        echo "    $VENV exists"
    else
        run python3 -m venv "$VENV"
    fi
    run "$VENV/bin/pip" install --quiet --upgrade pip
    # Not editable: the service runs the installed copy, so a half-edited clone cannot break it.
    run "$VENV/bin/pip" install --quiet --upgrade "${PREFIX}[pi]"
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
        echo "    no raspi-config and no config.txt: not a Raspberry Pi? Enable I2C and SPI by hand." >&2
        return
    fi
    add_line "$config" "dtparam=i2c_arm=on"
    add_line "$config" "dtparam=spi=on"
    add_line "$MODULES_LOAD_DIR/$APP.conf" "i2c-dev"
}

check_led_driver() {
    local board="$PREFIX/hardware/board.toml" driver
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
    run install -m 0644 "$SOURCE/systemd/$APP.service" "$UNIT_DIR/$APP.service"
    run systemctl daemon-reload
}

start_service() {
    say "enable and start $APP"
    run systemctl enable "$APP.service"
    if ((REBOOT_NEEDED)); then
        echo "    I2C/SPI were just enabled: reboot to start the board (sudo reboot)"
    else
        run systemctl restart "$APP.service"
    fi
}

main() {
    parse_arguments "$@"
    check_preconditions
    install_packages
    create_user
    copy_code
    install_venv
    enable_buses
    check_led_driver
    install_unit
    start_service
    echo "Done. Status: systemctl status $APP   Log: journalctl -u $APP -f"
}

# Sourcing the file (tests) defines the functions without running anything.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
