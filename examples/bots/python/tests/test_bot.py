"""Unit tests of the starter: ``python3 -m unittest discover -s tests`` from this folder."""

import unittest

from cardroom_bot.protocol import sign, verify, verify_any
from cardroom_bot.search import Search, best_of, search_choose
from cardroom_bot.strategy import choose, rank_of

# HMAC-SHA256("secret", '1700000000.{"a":1}'), the same vector as the JavaScript and Rust starters.
SIGNED = "sha256=49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686"
BODY = b'{"a":1}'


class Signatures(unittest.TestCase):
    def test_a_signature_over_timestamp_dot_body_verifies(self) -> None:
        self.assertEqual(sign("secret", "1700000000", BODY), SIGNED)
        self.assertTrue(verify("secret", "1700000000", SIGNED, BODY, now=1700000000))

    def test_a_wrong_secret_body_timestamp_or_a_stale_request_is_refused(self) -> None:
        self.assertFalse(verify("other", "1700000000", SIGNED, BODY, now=1700000000))
        self.assertFalse(verify("secret", "1700000000", SIGNED, b'{"a":2}', now=1700000000))
        self.assertFalse(verify("secret", "1700000001", SIGNED, BODY, now=1700000001))
        self.assertFalse(verify("secret", "1700000000", SIGNED, BODY, now=1700000000 + 301))
        self.assertFalse(verify("secret", "1700000000", None, BODY, now=1700000000))
        self.assertFalse(verify("secret", None, SIGNED, BODY, now=1700000000))
        self.assertFalse(verify("secret", "\u00b2", SIGNED, BODY, now=1700000000))

    def test_after_a_rotation_either_signature_header_verifies(self) -> None:
        forged = "sha256=" + "0" * 64
        at = 1700000000
        self.assertTrue(verify_any("secret", "1700000000", [SIGNED, None], BODY, now=at))
        # A bot still on the replaced secret: the new signature fails, the previous one verifies.
        self.assertTrue(verify_any("secret", "1700000000", [forged, SIGNED], BODY, now=at))
        self.assertFalse(verify_any("secret", "1700000000", [forged, forged], BODY, now=at))
        self.assertFalse(verify_any("secret", "1700000000", [None, None], BODY, now=at))


class Strategy(unittest.TestCase):
    def test_card_ranks_run_from_two_to_ace_joker_highest(self) -> None:
        codes = ["2S", "9H", "TH", "AS", "JK", "2-5"]
        self.assertEqual([rank_of(c) for c in codes], [0, 7, 8, 12, 13, -1])

    def test_the_policy_sheds_high_cards_and_discards_only_high_ones(self) -> None:
        lead = [{"type": "play", "cards": ["3S"]}, {"type": "play", "cards": ["KD"]},
                {"type": "play", "cards": ["9C", "9H"]}]
        request = {"view": {"target": None}, "legal_actions": lead}
        self.assertEqual(choose(request), {"type": "play", "cards": ["KD"]})  # type: ignore[arg-type]
        exchange = [{"type": "discard", "card": "4S"}, {"type": "draw"},
                    {"type": "discard", "card": "QH"}]
        request = {"view": {}, "legal_actions": exchange}
        self.assertEqual(choose(request), {"type": "discard", "card": "QH"})  # type: ignore[arg-type]
        request = {"view": {}, "legal_actions": exchange[:2]}
        self.assertEqual(choose(request), {"type": "draw"})  # type: ignore[arg-type]
        request = {"view": {}, "legal_actions": [{"type": "accept"}, {"type": "fold"}]}
        self.assertEqual(choose(request), {"type": "accept"})  # type: ignore[arg-type]


if __name__ == "__main__":
    unittest.main()


class SearchExample(unittest.TestCase):
    RESULTS = [
        {"action": {"type": "play", "cards": ["3S"]}, "mean_standing": [0.2, 0.8]},
        {"action": {"type": "play", "cards": ["KD"]}, "mean_standing": [0.6, 0.4]},
        {"action": {"type": "play", "cards": ["9C"]}, "mean_standing": [0.6, 0.1]},
    ]

    def test_the_best_mean_standing_for_the_seat_wins_ties_keep_the_canonical_order(self) -> None:
        self.assertEqual(best_of(self.RESULTS, 0, 8)["action"], {"type": "play", "cards": ["KD"]})
        self.assertEqual(best_of(self.RESULTS, 1, 8)["action"], {"type": "play", "cards": ["3S"]})
        self.assertEqual(
            best_of(self.RESULTS, 0, 8)["comment"], "rollouts: 8 per action, best standing 0.60"
        )

    def test_a_forced_move_or_an_unreachable_api_falls_back_to_the_simple_policy(self) -> None:
        legal = [{"type": "play", "cards": ["3S"]}, {"type": "play", "cards": ["KD"]}]
        request = {"game": "twenty_two", "seat": 0, "info": "i2.m.0.0.x", "deadline_ms": 200,
                   "view": {}, "legal_actions": legal}
        unreachable = Search("http://127.0.0.1:9")
        forced = search_choose({**request, "legal_actions": legal[:1]}, unreachable)
        self.assertEqual(forced["comment"], "forced")
        failed = search_choose(request, unreachable)
        self.assertEqual(failed["action"], {"type": "play", "cards": ["KD"]})
        self.assertTrue(failed["comment"].startswith("search failed"), failed["comment"])
