"""CRC-16/CCITT-FALSE check value and HMAC-SHA256 against RFC 4231, on CPython and MicroPython alike."""

from tenace_wire.auth import TAG_SIZE, Tagger, same_bytes
from tenace_wire.crc16 import crc16
from tenace_wire.pairing import check_code, club_id, event_key, hmac_sha256, hmac_sha256_small, pairing_code

from checks import raises

# RFC 4231 test cases 1-4, 6, 7: (key, data, HMAC-SHA256 in hex). Case 5 (truncation) is below.
RFC4231 = (
    (b"\x0b" * 20, b"Hi There",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (b"\xaa" * 20, b"\xdd" * 50,
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    (bytes(range(1, 26)), b"\xcd" * 50,
     "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    (b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    (b"\xaa" * 131, b"This is a test using a larger than block-size key and a larger than block-size data."
     b" The key needs to be hashed before being used by the HMAC algorithm.",
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
)


def _hex(data):
    return "".join("%02x" % b for b in data)


def test_crc16_ccitt_false_check_value():
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF
    # Continuing over a split gives the same CRC as one pass.
    assert crc16(b"6789", crc16(b"12345")) == 0x29B1


def test_hmac_sha256_rfc4231_vectors():
    for key, data, want in RFC4231:
        assert _hex(hmac_sha256_small(key, data)) == want, key[:4]
        assert _hex(hmac_sha256(key, data)) == want, key[:4]
        # The frame tagger is the same HMAC, truncated to TAG_SIZE bytes.
        assert _hex(Tagger(key).tag(data)) == want[:2 * TAG_SIZE]


def test_hmac_rfc4231_case5_truncated_to_128_bits():
    mac = hmac_sha256_small(b"\x0c" * 20, b"Test With Truncation")
    assert _hex(mac[:16]) == "a3b6167473100ee06e0c796c2955552b"


def test_tag_verification_and_constant_time_compare():
    tagger = Tagger(b"event key 16 byt")
    tag = tagger.tag(b"header+payload")
    assert tagger.verify(b"header+payload", tag)
    assert not tagger.verify(b"header+payloaD", tag)
    assert not Tagger(b"another key").verify(b"header+payload", tag)
    assert same_bytes(b"abc", b"abc") and not same_bytes(b"abc", b"abd") and not same_bytes(b"ab", b"abc")
    raises(ValueError, Tagger, b"")


def test_pairing_code_and_event_key():
    draws = [2 ** 20 - 1, 1000000, 42]  # the first two are out of range and drawn again
    code = pairing_code(lambda bits: draws.pop(0))
    assert code == "000042"
    nonce = b"\x01\x02\x03\x04\x05\x06\x07\x08"
    key = event_key("123 456", nonce)
    assert len(key) == 16 and key == event_key("123456", nonce)
    assert key != event_key("123457", nonce) and key != event_key("123456", b"\x00" * 8)
    assert "6 digits" in raises(ValueError, check_code, "12345")
    raises(ValueError, check_code, "12a456")
    raises(ValueError, event_key, "123456", b"short")


def test_event_key_with_the_club_key():
    # Vectors from CPython's hmac and hashlib (auth.py's formulas), checked here on both interpreters.
    nonce = b"\x01\x02\x03\x04\x05\x06\x07\x08"
    club = bytes(range(16))
    v1 = event_key("123456", nonce)
    v2 = event_key("123 456", nonce, club)
    assert v1 == bytes.fromhex("33edc4599c2e84d155cbf93af748c7d5")
    assert v2 == bytes.fromhex("cfb0b9df0cdc41d848a233e5df60c59d")
    # The code, the nonce and the club key each change it.
    assert v2 != event_key("123457", nonce, club) and v2 != event_key("123456", b"\x00" * 8, club)
    assert v2 != event_key("123456", nonce, bytes(16))
    assert club_id(club) == bytes.fromhex("102002fb") and club_id(bytes(16)) != club_id(club)
    raises(ValueError, event_key, "123456", nonce, b"short club key")
    raises(ValueError, club_id, bytes(17))
