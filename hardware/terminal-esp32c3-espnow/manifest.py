# The frozen production image of the ESP32-C3 terminal: the rules, the wire, the radio transports, the
# terminal app, the board file and the SSD1306 driver run from flash and cost no heap; ESP-NOW is built
# into the port. Build and flash: hardware/README.md ("A frozen image"). include, package, module,
# require: MicroPython's manifest functions (tools/manifestfile.py); paths are relative to this file.
# main.py, terminal.cfg and the message catalogues (tenace_terminal/lang/*.txt, data, not modules)
# stay on the file system: `tenace flash --frozen`.
# pyright: reportUndefinedVariable=false
# ruff: noqa: F821

include("$(PORT_DIR)/boards/manifest.py")  # what the port freezes by default (asyncio, ...)

package("tenace_rules", base_path="../../firmware")  # Law 2, contracts, Law 77: the laptop's code too
package("tenace_wire", base_path="../../firmware")  # frames, CRC, authentication tags, sessions
package("tenace_radio", base_path="../../firmware")  # the ESP-NOW transport
package("tenace_terminal", base_path="../../firmware")  # the app, its screens, the journal
module("board.py")  # imported as board by main.py; a board.py on the file system would take its place
require("ssd1306")  # micropython-lib's OLED driver
