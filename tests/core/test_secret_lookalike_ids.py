"""Names and ids with a key's shape are stored: a GPG key id after "signing key" (published on key servers), a
.NET or Java dotted name of words read as a Discord bot token. Keys of those shapes stay refused."""

from __future__ import annotations

import pytest

from kg_actors.core import secrecy

DOTNET = "OrderFulfillmentServices.Orders.ReserveInventoryForOrderAsync"
DISCORD = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ" + ".GhIjKl." + "abcDEF123ghiJKL456mnoPQR789stu"
STORED = [
    "signing key: 3AA5C34371567BD2",
    "signing key: 78EB8682EBFFCAC4",
    "signing_key=0x3AA5C34371567BD2",
    "key id 3AA5C34371567BD2",
    f"at {DOTNET}(Guid orderId)",
    f"The order pipeline throws in {DOTNET} when stock is negative.",
    "NotificationDispatcherService.Handlers.SendWelcomeEmailToNewCustomer",
]
REFUSED = [
    "signing key: 790a87f079abd980c540c9fa7364f561",
    "signing key: Ffq7JCafB4YXwtw2hJYNey79DslFLmhIAUDcKSo2",
    f"bot token {DISCORD}",
    DISCORD,
]


@pytest.mark.parametrize("text", STORED)
def test_an_id_or_a_name_with_a_keys_shape_is_stored(text):
    assert secrecy.find(text) is None, text


@pytest.mark.parametrize("text", REFUSED)
def test_a_key_of_those_shapes_stays_refused(text):
    assert secrecy.find(text) is not None, text


def test_a_dotted_name_in_a_gist_is_stored():
    node = secrecy.clean_node(f"The order pipeline throws in {DOTNET} when stock is negative.",
                              [f"at {DOTNET}(Guid orderId)", "fixed by clamping to zero"], None)
    assert DOTNET in node.gist
