"""The words of `gamao run --check` (kiosk/checks.py): each part's name, what was found and what to do, in
Brazilian Portuguese and English; ``t(key, language, **params)`` fills one in.

>>> t("mark_missing", "pt")
'FALTA'
"""

from __future__ import annotations

from typing import Any

# key -> (Brazilian Portuguese, English); placeholders filled by t().
TEXTS: dict[str, tuple[str, str]] = {
    "mark_ok": ("ok", "ok"), "mark_missing": ("FALTA", "MISSING"), "mark_warning": ("aviso", "warning"),
    # part names
    "data folder": ("pasta de dados", "data folder"), "disk space": ("espaço em disco", "disk space"),
    "journal": ("diário de jogos", "journal"), "storage": ("cartão SD (overlay)", "SD card (overlay)"),
    "referee": ("árbitro", "referee"), "web server": ("servidor da tela", "web server"),
    "camera": ("câmera", "camera"), "camera settings": ("ajustes da câmera", "camera settings"),
    "calibration": ("calibração da câmera", "camera calibration"), "dice unit": ("dados eletrônicos", "dice unit"),
    "GPIO buttons": ("botões (GPIO)", "GPIO buttons"), "screen": ("tela", "screen"),
    "audio": ("som (anúncios falados)", "audio (spoken calls)"), "coach": ("GNU Backgammon (treinador)",
                                                                          "GNU Backgammon (coach)"),
    "club": ("clube (broker MQTT)", "club (MQTT broker)"), "pin": ("PIN de controle", "control PIN"),
    # messages
    "data_ok": ("{dir} pode ser gravada (jogos, PIN e calibração ficam aqui)",
                "{dir} is writable (games and the PIN are kept here)"),
    "data_new": ("{dir} ainda não existe: será criada na primeira partida ({parent} pode ser gravada)",
                 "{dir} does not exist yet: it is made at the first start ({parent} is writable)"),
    "data_bad": ("não é possível gravar em {dir}: defina data_dir no arquivo de configuração com uma pasta que "
                 "este usuário possa gravar", "cannot write to {dir}; set data_dir in the config file to a folder "
                 "this user may write"),
    "disk_ok": ("{free} livres em {where}", "{free} free on {where}"),
    "disk_low": ("só {free} livres em {where}: apague arquivos velhos ou use um cartão maior (o diário recusa "
                 "jogadas com o disco cheio)", "only {free} free on {where}: remove old files or use a larger "
                 "card (the journal refuses events when the disk is full)"),
    "overlay_on": ("raiz somente leitura (overlay): o sistema volta igual a cada reinício; os dados ficam em "
                   "{mount} ({fs}, gravável)", "read-only root (overlay): the system comes back the same at "
                   "every start; the data is on {mount} ({fs}, writable)"),
    "overlay_data_lost": ("raiz somente leitura (overlay), mas a pasta de dados {dir} está no overlay: os jogos "
                          "se perdem ao desligar. Monte uma partição gravável em {dir} (docs/appliance.md)",
                          "read-only root (overlay), but the data folder {dir} is on the overlay: games are lost "
                          "at power-off. Mount a writable partition on {dir} (docs/appliance.md)"),
    "overlay_off": ("raiz gravável (sem overlay): um corte de energia pode danificar o sistema no cartão SD; "
                    "veja a seção \"SD card\" de docs/appliance.md", "writable root (no overlay): a power cut can damage "
                    "the system on the SD card; see docs/appliance.md, \"SD card\""),
    "referee_ok": ("regras e serviço do árbitro presentes", "rules core and referee service present"),
    "referee_bad": ("o árbitro não está instalado nesta cópia; atualize e reinstale",
                    "the referee is not installed in this checkout; update the checkout and reinstall"),
    "port_ok": ("http://{host}:{port}/ está livre para a tela", "http://{host}:{port}/ is free to serve the screen"),
    "port_gamao": ("http://{host}:{port}/ já é servido pelo gamao (o serviço está rodando)",
                   "http://{host}:{port}/ is already served by gamao (the service is running)"),
    "port_busy": ("a porta {port} em {host} já está em uso (o gamao já está rodando? `systemctl status gamao`); "
                  "ou mude port no arquivo de configuração", "port {port} on {host} is already in use (is gamao "
                  "already running? `systemctl status gamao`); or set port in the config file"),
    "camera_off": ("desligada na configuração (camera = \"none\"): as posições são corrigidas na tela",
                   "disabled in the config (camera = \"none\"): boards are entered by hand"),
    "camera_pi": ("câmera do Raspberry Pi encontrada (picamera2)", "Raspberry Pi camera found (picamera2)"),
    "camera_pi_bad": ("o picamera2 está instalado mas a câmera não respondeu ({error})",
                      "picamera2 is installed but the camera did not answer ({error})"),
    "camera_usb": ("câmera USB/V4L2 em {device}", "USB/V4L2 camera at {device}"),
    "camera_none": ("nenhuma câmera encontrada ({where}, e nenhuma câmera do Raspberry Pi pelo picamera2). Ligue "
                    "o cabo da câmera ou uma câmera USB e teste com `rpicam-hello --list-cameras`",
                    "no camera found ({where}, and no Raspberry Pi camera through picamera2). Connect the camera "
                    "ribbon or a USB camera and check it with `rpicam-hello --list-cameras`"),
    "no_video": ("nenhum dispositivo /dev/video*", "no /dev/video* device"),
    "settings_read": ("pedido: {wanted}; lido da câmera: {got}", "asked: {wanted}; read back: {got}"),
    "settings_differ": ("a câmera não seguiu os ajustes: {problems}", "the camera did not follow the settings: "
                        "{problems}"),
    "settings_missing": ("esta câmera não tem {controls} (só a Camera Module 3 tem foco)",
                         "this camera has no {controls} (only Camera Module 3 has a focus motor)"),
    "settings_busy": ("não foi possível ler os ajustes ({error}); se o gamao está rodando, pare-o antes: "
                      "sudo systemctl stop gamao", "the settings could not be read back ({error}); if gamao is "
                      "running, stop it first: sudo systemctl stop gamao"),
    "settings_usb": ("foco, exposição e cintilação fixos valem só para a câmera do Raspberry Pi (picamera2)",
                     "fixed focus, exposure and flicker apply to the Raspberry Pi camera only (picamera2)"),
    "calib_ok": ("cantos do tabuleiro marcados na tela ({path})", "board corners set on the screen ({path})"),
    "calib_none": ("cantos não marcados: o tabuleiro é achado pelos marcadores ArUco; sem eles, use Calibrar "
                   "câmera na tela", "corners not set: the board is found by its ArUco markers; without them, "
                   "use Calibrate camera on the screen"),
    "calib_bad": ("{path} está danificado ({error}): marque os cantos de novo em Calibrar câmera",
                  "{path} is damaged ({error}): set the corners again with Calibrate camera"),
    "dice_ok": ("encontrados em {port}", "found at {port}"),
    "dice_port": ("a porta serial configurada {port} não existe; ligue o cabo USB dos dados ou corrija "
                  "serial_port no arquivo de configuração", "the configured serial port {port} does not exist; "
                  "plug in the dice unit's USB cable or correct serial_port in the config file"),
    "dice_none": ("nenhum dado eletrônico encontrado: nem {link} (criado por hardware/99-gamao-dice.rules) nem "
                  "um Raspberry Pi Pico na USB. Ligue o cabo USB dos dados; sem eles, teste `gamao demo`",
                  "no dice unit found: neither {link} (installed by hardware/99-gamao-dice.rules) nor a "
                  "Raspberry Pi Pico on USB. Plug in the dice unit's USB cable; without it, try `gamao demo`, "
                  "which simulates the dice"),
    "gpio_none": ("sem /dev/gpiochip*: isto não é um Raspberry Pi, então os botões (pinos {pins}) não "
                  "funcionam; o painel de controle da tela funciona", "no /dev/gpiochip*: this is not a "
                  "Raspberry Pi, so the hardware buttons (pins {pins}) cannot work; the touch screen's control "
                  "panel still can"),
    "gpio_lib": ("há GPIO mas falta a biblioteca lgpio: sudo apt install python3-lgpio",
                 "GPIO chips exist but the lgpio library is missing: sudo apt install python3-lgpio"),
    "gpio_ok": ("{chip} com lgpio; pinos {pins}", "{chip} with lgpio; pins {pins}"),
    "screen_ok": ("{browser}; tela ligada: {outputs}", "{browser}; display connected: {outputs}"),
    "screen_nodisplay": ("{browser}; nenhuma tela ligada (HDMI ou DSI)", "{browser}; no display connected "
                         "(HDMI or DSI)"),
    "screen_nobrowser": ("o Chromium não está instalado, então a tela não abre sozinha: sudo apt install "
                         "chromium", "Chromium is not installed, so the screen cannot start by itself: "
                         "sudo apt install chromium"),
    "audio_ok": ("{speaker} e saída de som {cards}", "{speaker} and sound output {cards}"),
    "audio_off": ("anúncios falados desligados na configuração", "spoken calls turned off in the config"),
    "audio_nospeaker": ("falta o espeak-ng para os anúncios falados: sudo apt install espeak-ng",
                        "espeak-ng is missing for the spoken calls: sudo apt install espeak-ng"),
    "audio_nocard": ("{speaker}, mas nenhuma saída de som (/proc/asound/cards vazio): ligue alto-falantes "
                     "HDMI ou USB", "{speaker}, but no sound output (/proc/asound/cards is empty): connect "
                     "HDMI or USB speakers"),
    "coach_ok": ("{path}", "{path}"),
    "coach_none": ("o GNU Backgammon não está instalado: o treinador mostra as jogadas sem avaliá-las. "
                   "sudo apt install gnubg", "GNU Backgammon is not installed: the coach shows the plays "
                   "unranked. sudo apt install gnubg"),
    "club_none": ("sem tabela [club]: esta mesa não publica para um diretor", "no [club] table: this board "
                  "publishes to no director"),
    "club_ok": ("{broker} aceitou a conexão{who} (mesa {board} do clube {club})", "{broker} accepted the "
                "connection{who} (board {board} of club {club})"),
    "club_refused": ("{broker} recusou a conexão: {reason}; confira username e password em [club]",
                     "{broker} refused the connection: {reason}; check username and password in [club]"),
    "club_unreachable": ("{broker} não respondeu ({error}): confira o endereço, a rede e o certificado",
                         "{broker} did not answer ({error}): check the address, the network and the certificate"),
    "pin_ok": ("definido ({path})", "set ({path})"),
    "pin_none": ("ainda não definido: toque em Controle na tela do tabuleiro e escolha um PIN (4 a 12 dígitos)",
                 "not set yet: press Controle on the board's touch screen and choose a PIN (4 to 12 digits)"),
    "pin_bad": ("{path} está danificado: apague-o e defina o PIN de novo na tela", "{path} is damaged: remove "
                "it and set the PIN again on the screen"),
    "journal_new": ("ainda não há diário em {path}: um novo é criado na primeira partida",
                    "no journal yet at {path}: a new one is made at the first start"),
    "journal_ok": ("{path}: {events} eventos em {matches} partidas, verificação de integridade ok",
                   "{path}: {events} events in {matches} matches, integrity check ok"),
    "journal_gone": ("{path} sumiu: {problems}. As partidas terminadas estão em {archive}; `gamao run` começa "
                     "um diário novo e avisa na tela", "{path} is missing: {problems}. Finished matches are in "
                     "{archive}; `gamao run` starts a new journal and says so on the screen"),
    "journal_bad": ("{path} não está saudável: {problems}{lost}. `gamao run` põe o arquivo danificado de lado e "
                    "recupera o que puder ao iniciar; ou rode `gamao journal {dir} --salvage` com o quiosque "
                    "parado", "{path} is not healthy: {problems}{lost}. `gamao run` moves a damaged file aside "
                    "and salvages what it can at start; or run `gamao journal {dir} --salvage` with the kiosk "
                    "stopped"),
    "journal_unreadable": ("não é possível ler {path} ({error})", "cannot read {path} ({error})"),
    "sum_missing": ("{n} parte(s) obrigatória(s) faltando: {names}. O Gamão ainda não pode funcionar como "
                    "aparelho nesta máquina.", "{n} required part(s) missing: {names}. Gamão cannot run as an "
                    "appliance on this machine yet."),
    "cannot_look": ("não foi possível verificar ({error}); rode como o usuário do serviço: sudo -u gamao gamao "
                    "run --check ...", "cannot look ({error}); run it as the service's user: sudo -u gamao gamao "
                    "run --check ..."),
    "not_starting": ("não vai iniciar; corrija as partes acima, ou teste `gamao demo` com peças simuladas.",
                     "not starting; fix the parts above, or try `gamao demo` on simulated hardware."),
    "sum_ok": ("Tudo o que é preciso está presente: `gamao run --config ARQUIVO` inicia o aparelho.",
               "Everything needed is present: `gamao run --config FILE` will start the appliance."),
}


def t(key: str, language: str = "en", **params: Any) -> str:
    pt, en = TEXTS[key]
    return (pt if language == "pt" else en).format(**params)
