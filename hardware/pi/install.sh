#!/bin/sh
# Install (or update) the Gamão appliance on Raspberry Pi OS / Debian 12 bookworm or 13 trixie, 64-bit.
#
#   sudo /opt/gamao/hardware/pi/install.sh [--desktop-user NAME] [--rotate 0|90|180|270] [--no-apt]
#
# Run from the checkout at /opt/gamao (docs/appliance.md says how it gets there). Safe to run again: a second
# run changes nothing, and after `git pull` (or a newer copy of the checkout) it updates the appliance. It never
# touches the data folder (/var/lib/gamao: journal, archive, PIN, calibration) nor an existing
# /etc/gamao/gamao.toml (a newer default is left beside it as gamao.toml.new).
#
# What it does, each step said on the screen as it goes:
#   1. Debian packages: python3-venv, GNU Backgammon (gnubg), Chromium, espeak-ng, curl, locales, wlr-randr;
#      python3-picamera2 and python3-lgpio where the OS has them (Raspberry Pi OS does, plain Debian does not).
#   2. The pt_BR.UTF-8 locale (the service runs in it; the screen's language is `language` in the config).
#   3. The system user `gamao` (groups dialout, video, gpio, audio where they exist).
#   4. The virtual environment /opt/gamao/.venv with --system-site-packages (the system's picamera2 and lgpio
#      are seen), and the appliance in it.
#   5. /etc/gamao/gamao.toml (first time only), the udev rule for the dice unit, the systemd unit
#      (enabled, and restarted when systemd runs; in a chroot it says it skipped that).
#   6. The kiosk screen for the desktop user under labwc: ~/.config/labwc/autostart (Chromium --kiosk on
#      the page, Wayland flags), the cursor hidden (an invisible cursor theme in ~/.config/labwc/environment),
#      screen blanking off, the screen rotated when --rotate is given, the touch screen mapped to the screen.
set -eu

APP=/opt/gamao
HERE=$(cd "$(dirname "$0")/../.." && pwd)
DESKTOP_USER=""
ROTATE=""
APT=1

say() { printf 'gamao install: %s\n' "$*"; }
die() { printf 'gamao install: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --desktop-user) [ $# -ge 2 ] || die "--desktop-user needs a user name"; DESKTOP_USER=$2; shift 2 ;;
        --rotate) [ $# -ge 2 ] || die "--rotate needs 0, 90, 180 or 270"; ROTATE=$2; shift 2 ;;
        --no-apt) APT=0; shift ;;
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (try --help)" ;;
    esac
done
case "$ROTATE" in ""|0|90|180|270) ;; *) die "--rotate must be 0, 90, 180 or 270, not $ROTATE" ;; esac
[ "$(id -u)" -eq 0 ] || die "run it with sudo: sudo $APP/hardware/pi/install.sh"
[ "$HERE" = "$APP" ] || die "the checkout must be at $APP (it is at $HERE): sudo mv $HERE $APP, then run $APP/hardware/pi/install.sh"
[ -f "$APP/pyproject.toml" ] || die "$APP does not hold Gamão's checkout (no pyproject.toml)"

systemd_running() { [ -d /run/systemd/system ]; }
has_candidate() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }

# ---- 1. packages ------------------------------------------------------------------------------------------
if [ "$APT" -eq 1 ]; then
    say "1/6 Debian packages (apt-get; this is the long part the first time)"
    export DEBIAN_FRONTEND=noninteractive
    # An install cut short (power cut, Ctrl-C) can leave GNU Backgammon's two-sided bearoff database empty (its
    # package builds it while being set up: a minute on a Pi 4) and dpkg half done: both are finished here.
    if [ -f /var/lib/gnubg/gnubg_ts0.bd ] && [ ! -s /var/lib/gnubg/gnubg_ts0.bd ]; then
        say "  GNU Backgammon's bearoff database is empty (an interrupted install): it is built again"
        rm -f /var/lib/gnubg/gnubg_ts0.bd
        if dpkg-query -W -f='${Status}' gnubg 2>/dev/null | grep -q ' installed$'; then
            dpkg-reconfigure gnubg
        fi
    fi
    dpkg --configure -a
    apt-get update -q
    pkgs="python3 python3-venv gnubg espeak-ng curl locales wlr-randr ca-certificates"
    # Chromium: Debian and Raspberry Pi OS trixie call it chromium; older Raspberry Pi OS chromium-browser.
    if has_candidate chromium; then pkgs="$pkgs chromium"; else pkgs="$pkgs chromium-browser"; fi
    for optional in python3-picamera2 python3-lgpio fonts-dejavu-core; do
        if has_candidate "$optional"; then pkgs="$pkgs $optional"; else say "  $optional: not in this OS's archive (fine off a Pi)"; fi
    done
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $pkgs
else
    say "1/6 Debian packages: skipped (--no-apt)"
fi

# ---- 2. locale --------------------------------------------------------------------------------------------
say "2/6 locale pt_BR.UTF-8"
if locale -a 2>/dev/null | grep -qix 'pt_BR.utf8'; then
    say "  already generated"
else
    if grep -q '^# *pt_BR.UTF-8 UTF-8' /etc/locale.gen 2>/dev/null; then
        sed -i 's/^# *pt_BR.UTF-8 UTF-8/pt_BR.UTF-8 UTF-8/' /etc/locale.gen
    elif ! grep -q '^pt_BR.UTF-8 UTF-8' /etc/locale.gen 2>/dev/null; then
        echo 'pt_BR.UTF-8 UTF-8' >> /etc/locale.gen
    fi
    locale-gen
fi

# ---- 3. the service's user --------------------------------------------------------------------------------
say "3/6 user gamao"
if ! id gamao >/dev/null 2>&1; then
    useradd --system --create-home --home-dir /var/lib/gamao-home --shell /usr/sbin/nologin gamao
fi
for group in dialout video gpio audio render; do
    if getent group "$group" >/dev/null && ! id -nG gamao | tr ' ' '\n' | grep -qx "$group"; then
        usermod -aG "$group" gamao
    fi
done

# ---- 4. the virtual environment ---------------------------------------------------------------------------
say "4/6 Python environment $APP/.venv (with the system's picamera2 and lgpio visible)"
if ! "$APP/.venv/bin/python" -c 'import sys' 2>/dev/null; then
    rm -rf "$APP/.venv"  # none yet, or made by an older Python (after an OS upgrade)
    python3 -m venv --system-site-packages "$APP/.venv"
fi
# picamera2's compiled helpers (simplejpeg, from the OS) are built for the OS's numpy: never shadow a numpy 1.x
# of the OS with a pip numpy 2 in the venv (picamera2 then fails with "numpy.dtype size changed").
constraints=$(mktemp)
trap 'rm -f "$constraints"' EXIT
if python3 -c 'import numpy, sys; sys.exit(0 if numpy.__version__.startswith("1.") else 1)' 2>/dev/null; then
    echo 'numpy<2' > "$constraints"
    say "  the OS's numpy is 1.x: the venv keeps numpy below 2 for picamera2"
fi
"$APP/.venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade-strategy only-if-needed \
    -c "$constraints" -e "$APP"
"$APP/.venv/bin/gamao" --help >/dev/null
ln -sf "$APP/.venv/bin/gamao" /usr/local/bin/gamao

# ---- 5. settings, udev rule, systemd unit -----------------------------------------------------------------
say "5/6 settings, dice unit's udev rule, systemd unit"
install -d -m 0755 /etc/gamao
if [ ! -e /etc/gamao/gamao.toml ]; then
    install -m 0640 -g gamao "$APP/kiosk/deploy/gamao.toml" /etc/gamao/gamao.toml
    say "  /etc/gamao/gamao.toml written (edit it: language, camera, GPIO pins, club)"
elif ! cmp -s "$APP/kiosk/deploy/gamao.toml" /etc/gamao/gamao.toml; then
    install -m 0640 -g gamao "$APP/kiosk/deploy/gamao.toml" /etc/gamao/gamao.toml.new
    say "  /etc/gamao/gamao.toml kept as it is; this version's defaults are in /etc/gamao/gamao.toml.new"
fi
install -d -m 0700 -o gamao -g gamao /var/lib/gamao  # the data folder: created once, never emptied
install -d /etc/udev/rules.d
install -m 0644 "$APP/hardware/99-gamao-dice.rules" /etc/udev/rules.d/99-gamao-dice.rules
install -d /etc/systemd/system
install -m 0644 "$APP/kiosk/deploy/gamao.service" /etc/systemd/system/gamao.service
if systemd_running; then
    udevadm control --reload && udevadm trigger --subsystem-match=tty || true
    systemctl daemon-reload
    systemctl enable gamao
    systemctl restart gamao
    say "  gamao.service enabled and (re)started: journalctl -u gamao -f"
else
    install -d /etc/systemd/system/multi-user.target.wants
    ln -sf /etc/systemd/system/gamao.service /etc/systemd/system/multi-user.target.wants/gamao.service
    say "  systemd is not running here (a chroot or a container): gamao.service is enabled for the next boot" \
        "but not started; on the Pi itself: sudo systemctl restart gamao"
fi

# ---- 6. the kiosk screen under labwc ----------------------------------------------------------------------
say "6/6 kiosk screen (labwc)"
if [ -z "$DESKTOP_USER" ]; then
    DESKTOP_USER=$(sed -n 's/^autologin-user=//p' /etc/lightdm/lightdm.conf 2>/dev/null | tail -n 1)
fi
if [ -z "$DESKTOP_USER" ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    DESKTOP_USER=$SUDO_USER
fi
if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_blanking 1 || say "  raspi-config could not turn screen blanking off: do it in raspi-config > Display"
fi
if [ -z "$DESKTOP_USER" ] || ! id "$DESKTOP_USER" >/dev/null 2>&1; then
    say "  no desktop user found (no autologin-user in /etc/lightdm/lightdm.conf, not run through sudo):" \
        "the screen is not set up; run again with --desktop-user NAME"
else
    home=$(getent passwd "$DESKTOP_USER" | cut -d: -f6)
    group=$(id -gn "$DESKTOP_USER")
    for dir in "$home/.config" "$home/.config/labwc"; do
        [ -d "$dir" ] || install -d -m 0755 -o "$DESKTOP_USER" -g "$group" "$dir"
    done
    "$APP/.venv/bin/python" "$APP/hardware/pi/kiosk_screen.py" --home "$home" --app "$APP" ${ROTATE:+--rotate "$ROTATE"}
    chown -R "$DESKTOP_USER:$group" "$home/.config/labwc"
    say "  $home/.config/labwc: autostart (Chromium --kiosk), environment (cursor hidden), rc.xml (touch)"
fi
say "done. Check every part: sudo -u gamao gamao run --check --config /etc/gamao/gamao.toml"
