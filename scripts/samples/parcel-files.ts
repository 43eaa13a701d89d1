// Contents of the fictional "parcel-tracker" project (a small FastAPI service) as the tools of
// the Korean sample show them. Written for Contextscope's samples.
import { seededRandom } from "./builder";

export const CWD = "/home/jiwoo/work/parcel-tracker";

export const TREE = `app:
__init__.py
config.py
db.py
main.py
models.py
routes
services

app/routes:
__init__.py
parcels.py

app/services:
__init__.py
eta.py

tests:
conftest.py
test_eta.py
test_events.py
test_parcels_api.py
[project]
name = "parcel-tracker"
version = "0.9.2"
requires-python = ">=3.11"
dependencies = [
    "fastapi==0.110.0",
    "uvicorn[standard]==0.29.0",
    "sqlalchemy==2.0.29",
    "psycopg[binary]==3.1.18",
    "pydantic-settings==2.2.1",
]

[project.optional-dependencies]
dev = ["pytest==8.1.1", "httpx==0.27.0", "pytest-asyncio==0.23.6"]

[tool.pytest.ini_options]
addopts = "-ra"
testpaths = ["tests"]
`;

export const MAIN_PY = `from fastapi import FastAPI

from app.config import settings
from app.db import engine
from app.models import Base
from app.routes import parcels

app = FastAPI(title="parcel-tracker", version="0.9.2")
app.include_router(parcels.router)


@app.on_event("startup")
def create_tables() -> None:
    # Migrations are overkill for a service this size; tables are created on start.
    if settings.create_tables:
        Base.metadata.create_all(engine)


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}
`;

export const MODELS_PY = `from datetime import datetime
from enum import Enum

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class EventKind(str, Enum):
    CREATED = "created"
    PICKED_UP = "picked_up"
    IN_TRANSIT = "in_transit"
    AT_HUB = "at_hub"
    OUT_FOR_DELIVERY = "out_for_delivery"
    DELIVERED = "delivered"
    FAILED_ATTEMPT = "failed_attempt"


class Parcel(Base):
    __tablename__ = "parcels"

    id: Mapped[int] = mapped_column(primary_key=True)
    tracking_code: Mapped[str] = mapped_column(String(20), unique=True, index=True)
    recipient_city: Mapped[str] = mapped_column(String(80))
    service_level: Mapped[str] = mapped_column(String(16), default="standard")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    events: Mapped[list["TrackingEvent"]] = relationship(
        back_populates="parcel", order_by="TrackingEvent.occurred_at"
    )


class TrackingEvent(Base):
    __tablename__ = "tracking_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True)
    kind: Mapped[EventKind]
    location: Mapped[str] = mapped_column(String(80))
    occurred_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    parcel: Mapped[Parcel] = relationship(back_populates="events")
`;

export const PARCELS_PY = `from fastapi import APIRouter, Depends, HTTPException, Query
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import get_session
from app.models import Parcel
from app.services.eta import estimate_delivery

router = APIRouter(prefix="/parcels", tags=["parcels"])


class EventOut(BaseModel):
    kind: str
    location: str
    occurred_at: str


class ParcelOut(BaseModel):
    tracking_code: str
    recipient_city: str
    status: str
    eta: str | None
    events: list[EventOut]


def to_out(parcel: Parcel) -> ParcelOut:
    events = [
        EventOut(kind=e.kind.value, location=e.location, occurred_at=e.occurred_at.isoformat())
        for e in parcel.events
    ]
    eta = estimate_delivery(parcel)
    return ParcelOut(
        tracking_code=parcel.tracking_code,
        recipient_city=parcel.recipient_city,
        status=events[-1].kind if events else "created",
        eta=eta.isoformat() if eta else None,
        events=events,
    )


@router.get("", response_model=list[ParcelOut])
def list_parcels(
    limit: int = Query(50, le=200),
    offset: int = 0,
    session: Session = Depends(get_session),
) -> list[ParcelOut]:
    parcels = session.scalars(select(Parcel).order_by(Parcel.id).limit(limit).offset(offset)).all()
    return [to_out(p) for p in parcels]


@router.get("/{tracking_code}", response_model=ParcelOut)
def get_parcel(tracking_code: str, session: Session = Depends(get_session)) -> ParcelOut:
    parcel = session.scalar(select(Parcel).where(Parcel.tracking_code == tracking_code))
    if parcel is None:
        raise HTTPException(status_code=404, detail="unknown tracking code")
    return to_out(parcel)
`;

export const ETA_PY = `"""Delivery estimates from the last known tracking event."""

from datetime import datetime, time, timedelta

from app.models import EventKind, Parcel

# Typical time from each event to delivery, by service level.
REMAINING = {
    "standard": {
        EventKind.CREATED: timedelta(days=3),
        EventKind.PICKED_UP: timedelta(days=2, hours=12),
        EventKind.IN_TRANSIT: timedelta(days=2),
        EventKind.AT_HUB: timedelta(days=1),
        EventKind.OUT_FOR_DELIVERY: timedelta(hours=6),
        EventKind.FAILED_ATTEMPT: timedelta(days=1),
    },
    "express": {
        EventKind.CREATED: timedelta(days=1, hours=12),
        EventKind.PICKED_UP: timedelta(days=1),
        EventKind.IN_TRANSIT: timedelta(hours=20),
        EventKind.AT_HUB: timedelta(hours=10),
        EventKind.OUT_FOR_DELIVERY: timedelta(hours=4),
        EventKind.FAILED_ATTEMPT: timedelta(hours=20),
    },
}

LAST_DROP_OFF = time(21, 0)


def estimate_delivery(parcel: Parcel) -> datetime | None:
    """None once delivered; otherwise the last event's time plus the typical remainder,
    moved to the next morning when it would fall after the last drop-off of the day."""
    if not parcel.events:
        return None
    last = parcel.events[-1]
    if last.kind is EventKind.DELIVERED:
        return None
    eta = last.occurred_at + REMAINING[parcel.service_level][last.kind]
    if eta.time() > LAST_DROP_OFF:
        eta = datetime.combine(eta.date() + timedelta(days=1), time(9, 0))
    return eta
`;

export function pytestOutput(failing: boolean): string {
  const tests = [
    "tests/test_eta.py::test_created_standard_is_three_days",
    "tests/test_eta.py::test_express_is_faster_than_standard",
    "tests/test_eta.py::test_delivered_has_no_eta",
    "tests/test_eta.py::test_after_last_drop_off_moves_to_next_morning",
    "tests/test_eta.py::test_next_morning_keeps_timezone",
    "tests/test_events.py::test_events_are_sorted_by_time",
    "tests/test_events.py::test_status_is_last_event",
    "tests/test_parcels_api.py::test_get_unknown_code_is_404",
    "tests/test_parcels_api.py::test_get_parcel_shape",
    "tests/test_parcels_api.py::test_list_limit_is_capped",
    "tests/test_parcels_api.py::test_list_pagination",
  ];
  const fails = failing ? new Set(["tests/test_eta.py::test_after_last_drop_off_moves_to_next_morning", "tests/test_eta.py::test_next_morning_keeps_timezone"]) : new Set<string>();
  const out = [
    "============================= test session starts ==============================",
    "platform linux -- Python 3.12.2, pytest-8.1.1, pluggy-1.4.0 -- /home/jiwoo/work/parcel-tracker/.venv/bin/python",
    "cachedir: .pytest_cache",
    "rootdir: /home/jiwoo/work/parcel-tracker",
    "configfile: pyproject.toml",
    "testpaths: tests",
    "plugins: anyio-4.3.0, asyncio-0.23.6",
    "asyncio: mode=Mode.STRICT",
    `collected ${tests.length} items`,
    "",
    ...tests.map((t, i) => `${t} ${fails.has(t) ? "FAILED" : "PASSED"}${" ".repeat(Math.max(1, 70 - t.length))}[${String(Math.round(((i + 1) / tests.length) * 100)).padStart(3)}%]`),
    "",
  ];
  if (failing) {
    out.push(
      "=================================== FAILURES ===================================",
      "_________________ test_after_last_drop_off_moves_to_next_morning _________________",
      "",
      "    def test_after_last_drop_off_moves_to_next_morning():",
      "        parcel = make_parcel(\"standard\", [(EventKind.OUT_FOR_DELIVERY, \"2024-05-02T17:30:00+09:00\")])",
      ">       assert estimate_delivery(parcel) == datetime.fromisoformat(\"2024-05-03T09:00:00+09:00\")",
      "E       TypeError: can't compare offset-naive and offset-aware datetimes",
      "",
      "tests/test_eta.py:41: TypeError",
      "_______________________ test_next_morning_keeps_timezone _______________________",
      "",
      "    def test_next_morning_keeps_timezone():",
      "        parcel = make_parcel(\"express\", [(EventKind.AT_HUB, \"2024-05-02T13:00:00+09:00\")])",
      "        eta = estimate_delivery(parcel)",
      ">       assert eta.tzinfo is not None",
      "E       AssertionError: assert None is not None",
      "E        +  where None = datetime.datetime(2024, 5, 3, 9, 0).tzinfo",
      "",
      "tests/test_eta.py:49: AssertionError",
      "=========================== short test summary info ============================",
      "FAILED tests/test_eta.py::test_after_last_drop_off_moves_to_next_morning - TypeError: can't compare offset-naive and offset-aware datetimes",
      "FAILED tests/test_eta.py::test_next_morning_keeps_timezone - AssertionError: assert None is not None",
      "========================= 2 failed, 9 passed in 0.84s ==========================",
    );
  } else {
    out.push("============================== 11 passed in 0.79s ==============================");
  }
  return out.join("\n") + "\n";
}

/** uvicorn access log lines with response times (the service logs them with a middleware). */
export function accessLog(count: number, seed: number, slowList: boolean): string[] {
  const random = seededRandom(seed);
  const lines: string[] = [];
  let t = Date.parse("2024-05-02T08:00:00Z");
  for (let i = 0; i < count; i++) {
    t += Math.floor(random() * 4000);
    const stamp = new Date(t).toISOString().replace("T", " ").slice(0, 23);
    const client = `10.20.${Math.floor(random() * 4)}.${10 + Math.floor(random() * 200)}`;
    const roll = random();
    let path: string;
    let ms: number;
    if (roll < 0.35) {
      const limit = [20, 50, 100, 200][Math.floor(random() * 4)]!;
      path = `/parcels?limit=${limit}&offset=${Math.floor(random() * 40) * limit}`;
      ms = slowList ? Math.round(limit * (9 + random() * 6)) : Math.round(12 + limit * 0.2 + random() * 15);
    } else if (roll < 0.85) {
      path = `/parcels/KR${String(Math.floor(random() * 1e9)).padStart(9, "0")}`;
      ms = Math.round(6 + random() * 20);
    } else {
      path = "/healthz";
      ms = 1;
    }
    const status = path.startsWith("/parcels/") && random() < 0.08 ? 404 : 200;
    lines.push(`${stamp} INFO  access ${client} "GET ${path} HTTP/1.1" ${status} ${ms}ms`);
  }
  return lines;
}

/** SQLAlchemy echo output showing one query per parcel (the N+1 pattern). */
export function sqlEcho(parcels: number): string {
  const lines = [
    "INFO sqlalchemy.engine.Engine BEGIN (implicit)",
    "INFO sqlalchemy.engine.Engine SELECT parcels.id, parcels.tracking_code, parcels.recipient_city, parcels.service_level, parcels.created_at \nFROM parcels ORDER BY parcels.id \n LIMIT %(param_1)s::INTEGER OFFSET %(param_2)s::INTEGER",
    "INFO sqlalchemy.engine.Engine [generated in 0.00021s] {'param_1': 50, 'param_2': 0}",
  ];
  for (let i = 1; i <= parcels; i++) {
    lines.push(
      "INFO sqlalchemy.engine.Engine SELECT tracking_events.id AS tracking_events_id, tracking_events.parcel_id AS tracking_events_parcel_id, tracking_events.kind AS tracking_events_kind, tracking_events.location AS tracking_events_location, tracking_events.occurred_at AS tracking_events_occurred_at \nFROM tracking_events \nWHERE %(param_1)s::INTEGER = tracking_events.parcel_id ORDER BY tracking_events.occurred_at",
      `INFO sqlalchemy.engine.Engine [cached since ${(i * 0.0113).toFixed(4)}s ago] {'param_1': ${4100 + i}}`,
    );
  }
  lines.push("INFO sqlalchemy.engine.Engine ROLLBACK");
  return lines.join("\n") + "\n";
}

/** `curl /parcels?limit=N | python -m json.tool` output. */
export function parcelsJson(count: number, seed: number): string {
  const random = seededRandom(seed);
  const cities = ["Seoul", "Busan", "Incheon", "Daegu", "Daejeon", "Gwangju", "Suwon", "Ulsan"];
  const hubs = ["Gunpo Hub", "Okcheon Hub", "Daejeon Hub", "Busan Sasang Hub"];
  const kinds = ["created", "picked_up", "in_transit", "at_hub", "out_for_delivery", "delivered"];
  const items = [];
  for (let i = 0; i < count; i++) {
    const steps = 1 + Math.floor(random() * kinds.length);
    let t = Date.parse("2024-05-01T00:00:00Z") + Math.floor(random() * 86400000);
    const city = cities[Math.floor(random() * cities.length)]!;
    const events = [];
    for (let k = 0; k < steps; k++) {
      t += 3600000 + Math.floor(random() * 28800000);
      const kind = kinds[k]!;
      const location = kind === "at_hub" || kind === "in_transit" ? hubs[Math.floor(random() * hubs.length)]! : kind === "created" || kind === "picked_up" ? "Seongnam" : city;
      events.push({ kind, location, occurred_at: new Date(t).toISOString().replace(".000Z", "+00:00") });
    }
    const delivered = steps === kinds.length;
    items.push({
      tracking_code: `KR${String(410000000 + i * 7919).padStart(9, "0")}`,
      recipient_city: city,
      status: kinds[steps - 1],
      eta: delivered ? null : new Date(t + 86400000).toISOString().replace(".000Z", "+00:00"),
      events,
    });
  }
  return JSON.stringify(items, null, 4) + "\n";
}

export const TEST_ETA_PY = `from datetime import datetime

from app.models import EventKind, Parcel, TrackingEvent
from app.services.eta import estimate_delivery


def make_parcel(level: str, events: list[tuple[EventKind, str]]) -> Parcel:
    parcel = Parcel(tracking_code="KR000000001", recipient_city="Seoul", service_level=level)
    parcel.events = [
        TrackingEvent(kind=kind, location="Gunpo Hub", occurred_at=datetime.fromisoformat(at))
        for kind, at in events
    ]
    return parcel


def test_created_standard_is_three_days():
    parcel = make_parcel("standard", [(EventKind.CREATED, "2024-05-01T10:00:00+09:00")])
    assert estimate_delivery(parcel) == datetime.fromisoformat("2024-05-04T10:00:00+09:00")


def test_express_is_faster_than_standard():
    events = [(EventKind.PICKED_UP, "2024-05-01T10:00:00+09:00")]
    assert estimate_delivery(make_parcel("express", events)) < estimate_delivery(make_parcel("standard", events))


def test_delivered_has_no_eta():
    parcel = make_parcel(
        "standard",
        [
            (EventKind.OUT_FOR_DELIVERY, "2024-05-02T08:10:00+09:00"),
            (EventKind.DELIVERED, "2024-05-02T11:42:00+09:00"),
        ],
    )
    assert estimate_delivery(parcel) is None


def test_after_last_drop_off_moves_to_next_morning():
    parcel = make_parcel("standard", [(EventKind.OUT_FOR_DELIVERY, "2024-05-02T17:30:00+09:00")])
    assert estimate_delivery(parcel) == datetime.fromisoformat("2024-05-03T09:00:00+09:00")


def test_next_morning_keeps_timezone():
    parcel = make_parcel("express", [(EventKind.AT_HUB, "2024-05-02T13:00:00+09:00")])
    eta = estimate_delivery(parcel)
    assert eta.tzinfo is not None
    assert eta.utcoffset().total_seconds() == 9 * 3600
`;

export const DB_PY = `from collections.abc import Iterator

from sqlalchemy import create_engine
from sqlalchemy.orm import Session, sessionmaker

from app.config import settings

engine = create_engine(settings.database_url, echo=settings.sql_echo, pool_size=10, max_overflow=5)
SessionLocal = sessionmaker(engine, expire_on_commit=False)


def get_session() -> Iterator[Session]:
    with SessionLocal() as session:
        yield session
`;

export const EXPLAIN_OUTPUT = `                                                                  QUERY PLAN
-----------------------------------------------------------------------------------------------------------------------------------------------
 Sort  (cost=1843.77..1853.52 rows=3900 width=64) (actual time=4.912..5.301 rows=1187 loops=1)
   Sort Key: occurred_at
   Sort Method: quicksort  Memory: 181kB
   ->  Bitmap Heap Scan on tracking_events  (cost=64.46..1611.25 rows=3900 width=64) (actual time=0.402..3.871 rows=1187 loops=1)
         Recheck Cond: (parcel_id = ANY ('{4101,4102,4103,4104,4105,4106,4107,4108,4109,4110,4111,4112,4113,4114,4115,4116,4117,4118,4119,4120}'::integer[]))
         Heap Blocks: exact=402
         ->  Bitmap Index Scan on ix_tracking_events_parcel_id  (cost=0.00..63.48 rows=3900 width=0) (actual time=0.311..0.311 rows=1187 loops=1)
               Index Cond: (parcel_id = ANY ('{4101,4102,4103,4104,4105,4106,4107,4108,4109,4110,4111,4112,4113,4114,4115,4116,4117,4118,4119,4120}'::integer[]))
 Planning Time: 0.284 ms
 Execution Time: 5.618 ms
(10 rows)

                                          Table "public.tracking_events"
   Column    |           Type           | Collation | Nullable |                   Default
-------------+--------------------------+-----------+----------+---------------------------------------------
 id          | integer                  |           | not null | nextval('tracking_events_id_seq'::regclass)
 parcel_id   | integer                  |           | not null |
 kind        | eventkind                |           | not null |
 location    | character varying(80)    |           | not null |
 occurred_at | timestamp with time zone |           | not null |
Indexes:
    "tracking_events_pkey" PRIMARY KEY, btree (id)
    "ix_tracking_events_parcel_id" btree (parcel_id)
Foreign-key constraints:
    "tracking_events_parcel_id_fkey" FOREIGN KEY (parcel_id) REFERENCES parcels(id)
`;
