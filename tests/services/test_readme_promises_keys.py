"""Key management needs ``admin`` on every space (audit of s14).

README, "Python API": a space "never sees another space's memory"; docs/service.md, export:
``admin`` on a space must not let "a leaked agent key" take more than that space. The key
routes took ``admin`` on *any* space, so a key confined to one tenant minted itself a key on
``*``, rotated another tenant's key (receiving its new secret, locking its owner out) and
read every space's access log. Now a key must hold ``admin`` on ``*`` to manage keys.
"""

from __future__ import annotations

from tests.services.conftest import Service


def test_an_admin_key_of_some_spaces_cannot_manage_keys(service: Service) -> None:
    victim = service.headers(["pk-victim"], "read,write")
    posted = service.client.post("/v1/spaces/pk-victim/turns", json={"turns": [{"text": "My PIN is 4321."}]},
                                 headers=victim)  # fmt: skip
    assert posted.status_code == 201
    (victim_key,) = [k for k in service.keys.list() if k.spaces == ("pk-victim",)]
    before = service.keys.list()

    for spaces in (["pk-tenant"], ["pk-tenant", "pk-victim"]):
        tenant_admin = service.headers(spaces, "read,write,admin,erase")
        calls = [
            ("POST", "/v1/keys", {"spaces": ["*"], "scopes": ["read", "write", "admin", "erase"]}),
            ("GET", "/v1/keys", None),
            ("POST", f"/v1/keys/{victim_key.id}/rotate", {"grace_seconds": 0}),
            ("DELETE", f"/v1/keys/{victim_key.id}", None),
            ("GET", "/v1/keys/log", None),
        ]
        for method, path, body in calls:
            refused = service.client.request(method, path, json=body, headers=tenant_admin)
            assert refused.status_code == 403 and refused.json()["code"] == "forbidden", (spaces, method, path)
            assert "'*'" in refused.json()["detail"]
    assert len(service.keys.list()) == len(before) + 2  # the two tenant keys; none minted
    assert service.client.get("/v1/spaces/pk-victim/stats", headers=victim).status_code == 200  # not rotated away
    (after,) = [k for k in service.keys.list() if k.id == victim_key.id]
    assert after.rotated_at is None and after.revoked_at is None

    operator = service.headers(["*"], "admin")
    assert service.client.get("/v1/keys", headers=operator).status_code == 200
    rotated = service.client.post(f"/v1/keys/{victim_key.id}/rotate", json={"grace_seconds": 0}, headers=operator)
    assert rotated.status_code == 200 and rotated.json()["secret"]


def test_an_unknown_job_or_key_is_a_404_that_names_no_space(service: Service) -> None:
    """Keys and jobs belong to no one space: the 404 says what was not found, not that a
    space named '*' was searched (the outside walk of s14 read "api key 'nope' not found in
    space '*'")."""
    operator = service.headers(["*"], "read,write,admin")
    for method, path, what in [("GET", "/v1/jobs/job_nope", "job 'job_nope' not found"),
                               ("DELETE", "/v1/keys/nope", "api key 'nope' not found")]:  # fmt: skip
        answer = service.client.request(method, path, headers=operator)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", (path, answer.text)
        assert answer.json()["detail"] == what, answer.json()


def test_an_admin_key_manages_keys_and_exports_and_nothing_else(service: Service) -> None:
    """README, "Two API replicas and the workers": the compose walk-through creates an
    ``admin`` key on ``*``; "An `admin` key manages keys (and exports spaces) and nothing
    else: reading and writing a space need `read` and `write`, erasing it `erase`"."""
    writer = service.headers(["pk-admin-only"], "read,write")
    turns = {"turns": [{"text": "I live in Porto.", "speaker": "Ana"}]}
    assert service.client.post("/v1/spaces/pk-admin-only/turns", json=turns, headers=writer).status_code == 201
    admin = service.headers(["*"], "admin")
    space = "/v1/spaces/pk-admin-only"
    for method, path, body in [
        ("POST", f"{space}/turns", turns),
        ("POST", f"{space}/recall", {"query": "Where does Ana live?"}),
        ("GET", f"{space}/stats", None),
        ("GET", f"{space}/beliefs", None),
        ("POST", f"{space}/erase", {"speaker": "Ana"}),
        ("DELETE", space, None),
    ]:
        refused = service.client.request(method, path, json=body, headers=admin)
        assert refused.status_code == 403 and refused.json()["code"] == "forbidden", (method, path, refused.text)
    assert service.client.get("/v1/keys", headers=admin).status_code == 200
    assert service.client.get(f"{space}/export", headers=admin).status_code == 200
    created = service.client.post("/v1/keys", json={"spaces": ["pk-admin-only"], "scopes": ["read", "write"]},
                                  headers=admin)  # fmt: skip
    assert created.status_code in (200, 201), created.text
    minted = {"Authorization": f"Bearer {created.json()['secret']}"}
    assert service.client.get(f"{space}/stats", headers=minted).json()["evidence"] == 1  # nothing was erased
