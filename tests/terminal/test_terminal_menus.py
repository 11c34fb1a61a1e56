"""The language menu, and random keys: neither may crash the app. Pytest and MicroPython."""

from table_steps import said, started
from tenace_terminal import catalogue


def test_language_menu_switches_and_the_choice_survives_a_reboot():
    sim = started()
    try:
        screen = said(sim, "MENU 1")
        assert "1 English" in screen and "5" in screen, screen
        sim.type("2")  # Srpski
        assert catalogue.language() == "sr"
        assert not sim.display.rtl
        sim.type("MENU 1 5")  # Hebrew: the display mirrors its lines
        assert catalogue.language() == "he" and sim.display.rtl
        sim.reboot()
        assert catalogue.language() == "he" and sim.display.rtl
        sim.type("OK MENU 1 1")
        assert catalogue.language() == "en" and not sim.display.rtl
        assert "Contract _" in said(sim, "")
    finally:
        catalogue.set_language("en")
        sim.close()


def test_a_language_whose_catalogue_is_missing_is_refused_and_a_lost_catalogue_shows_the_keys():
    sim = started()
    folder = catalogue.folder
    try:
        catalogue.folder = folder + "missing/"
        # Neither catalogue can be read now: the refusal shows its key and the language's name.
        screen = said(sim, "MENU 1 2")
        assert catalogue.language() == "en" and "lang_missing Srpski" in screen, screen
        catalogue.folder = folder
        assert "Contract _" in said(sim, "BACK")
    finally:
        catalogue.folder = folder
        catalogue.set_language("en")
        sim.close()


def test_random_keys_never_crash_the_app():
    # A deterministic stream of every key (the same on both interpreters): nothing may raise.
    names = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "D", "H", "S", "NT", "X", "PASS", "N", "E",
             "W", "A", "K", "Q", "J", "T", "+", "-", "=", "MENU", "UP", "DOWN") + ("OK",) * 8 + ("BACK",) * 4
    sim = started()
    try:
        seed = 12345
        for _ in range(1500):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            screen = sim.press(names[seed % len(names)])
            assert "Key ignored" not in screen, screen
        assert sim.host.duplicates() == 0
    finally:
        catalogue.set_language("en")
        sim.close()
