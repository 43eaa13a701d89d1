// Sample 2: the user writes in Korean, the tools answer in English, OpenAI model (gpt-4.1 over
// Chat Completions): debugging the fictional "parcel-tracker" FastAPI service, a user bash
// command and one manual compaction.
import { SessionBuilder } from "./builder";
import { accessLog, CWD, DB_PY, ETA_PY, EXPLAIN_OUTPUT, TEST_ETA_PY, MAIN_PY, MODELS_PY, PARCELS_PY, parcelsJson, pytestOutput, sqlEcho, TREE } from "./parcel-files";

const P = (file: string) => `${CWD}/${file}`;

export function buildKoreanSample(): string {
  const b = new SessionBuilder({
    seed: 0x9a5c31,
    start: "2026-05-02T01:41:27.530Z",
    cwd: CWD,
    provider: "openai",
    model: "gpt-4.1",
    api: "openai-completions",
    thinkingLevel: "off",
    pricing: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
    promptOverheadTokens: 2410,
  });

  // 1. Orientation.
  b.user("이 저장소 구조를 살펴보고 주요 모듈이 각각 무슨 일을 하는지 설명해 줘.");
  b.tools(null, [{ name: "bash", args: { command: "ls -1 app app/routes app/services tests && cat pyproject.toml" }, result: TREE }]);
  b.tools(null, [
    { name: "read", args: { path: P("app/main.py") }, result: MAIN_PY },
    { name: "read", args: { path: P("app/models.py") }, result: MODELS_PY },
    { name: "read", args: { path: P("app/routes/parcels.py") }, result: PARCELS_PY },
    { name: "read", args: { path: P("app/db.py") }, result: DB_PY },
  ]);
  b.reply(
    "FastAPI + SQLAlchemy 2.0으로 만든 작은 택배 조회 서비스입니다.\n\n" +
      "- `app/main.py`: 앱을 만들고 `parcels` 라우터를 등록합니다. 마이그레이션 없이 시작할 때 `create_all`로 테이블을 만듭니다.\n" +
      "- `app/models.py`: `Parcel`(운송장)과 `TrackingEvent`(집하, 허브 도착, 배송 출발 등 이벤트) 두 테이블. `Parcel.events`는 `occurred_at` 순으로 정렬된 관계입니다.\n" +
      "- `app/routes/parcels.py`: `GET /parcels`(목록, `limit` 최대 200)와 `GET /parcels/{tracking_code}`. 응답마다 이벤트 목록, 현재 상태, 예상 도착 시각(`eta`)을 담습니다.\n" +
      "- `app/services/eta.py`: 마지막 이벤트와 서비스 등급으로 도착 예상 시각을 계산합니다.\n\n" +
      "눈에 띄는 점: 목록 API가 운송장마다 `parcel.events`를 따로 읽기 때문에 쿼리가 운송장 수만큼 더 나갈 수 있습니다.",
  );

  // 2. Tests.
  b.user("테스트를 돌려서 실패하는 게 있는지 확인해 줘.");
  b.tools(null, [{ name: "bash", args: { command: ".venv/bin/pytest -v" }, result: pytestOutput(true) }]);
  b.reply(
    "11개 중 2개가 실패합니다. 둘 다 `estimate_delivery()`에서 \"다음 날 아침으로 미루는\" 분기 문제입니다.\n\n" +
      "1. `test_after_last_drop_off_moves_to_next_morning`: `TypeError: can't compare offset-naive and offset-aware datetimes`\n" +
      "2. `test_next_morning_keeps_timezone`: 결과의 `tzinfo`가 `None`\n\n" +
      "`datetime.combine(date, time(9, 0))`이 시간대 없는(naive) 값을 만들기 때문에, 이벤트 시각(시간대 있음)과 섞이면서 생기는 오류로 보입니다.",
  );

  // 3. Fix.
  b.user("원인을 고쳐 줘. 시간대는 마지막 이벤트의 시간대를 그대로 따르면 돼.");
  b.tools(null, [
    { name: "read", args: { path: P("app/services/eta.py") }, result: ETA_PY },
    { name: "read", args: { path: P("tests/test_eta.py") }, result: TEST_ETA_PY },
  ]);
  b.tools("The drop-off check also compares a wall-clock time, so both the comparison and the next-morning value must use the event's own timezone.", [
    {
      name: "edit",
      args: {
        path: P("app/services/eta.py"),
        oldText: "    if eta.time() > LAST_DROP_OFF:\n        eta = datetime.combine(eta.date() + timedelta(days=1), time(9, 0))",
        newText: "    if eta.timetz().replace(tzinfo=None) > LAST_DROP_OFF:\n        next_morning = time(9, 0, tzinfo=eta.tzinfo)\n        eta = datetime.combine(eta.date() + timedelta(days=1), next_morning)",
      },
      result: `Successfully replaced text in ${P("app/services/eta.py")}.`,
    },
  ]);
  b.tools(null, [{ name: "bash", args: { command: ".venv/bin/pytest -v" }, result: pytestOutput(false) }]);
  b.reply("고쳤습니다. 마감 시각 비교는 이벤트 시간대의 현지 시각으로 하고, 다음 날 09:00도 같은 `tzinfo`로 만듭니다. 테스트 11개 모두 통과합니다.");

  b.bash(".venv/bin/pytest -q tests/test_eta.py", ".....                                                                    [100%]\n5 passed in 0.41s\n");

  // 4. Slow list endpoint.
  b.user("/parcels 목록 API가 느리다는 제보가 있어. 로그를 보고 원인을 찾아 줘.");
  b.tools(null, [{ name: "bash", args: { command: "tail -n 420 logs/access.log" }, result: accessLog(420, 5, true).join("\n") + "\n" }]);
  b.tools("List requests take roughly 10–15 ms per parcel while single lookups stay fast. Checking the SQL for one list call.", [
    {
      name: "bash",
      args: { command: "SQL_ECHO=1 .venv/bin/python -c \"from fastapi.testclient import TestClient; from app.main import app; TestClient(app).get('/parcels?limit=50')\" 2>&1 | head -n 110" },
      result: sqlEcho(54),
    },
  ]);
  b.reply(
    "원인은 N+1 쿼리입니다.\n\n" +
      "- 액세스 로그에서 `/parcels?limit=200`은 2~3초, `limit=20`은 200~300ms가 걸립니다. 응답 시간이 `limit`에 거의 비례합니다. 반면 단건 조회(`/parcels/KR…`)는 10~25ms입니다.\n" +
      "- SQL 로그를 보면 `parcels`를 한 번 읽은 뒤, 운송장마다 `tracking_events`를 `WHERE … = tracking_events.parcel_id`로 한 번씩 더 읽습니다. `limit=50`이면 쿼리 51번입니다.\n\n" +
      "`to_out()`에서 `parcel.events`에 처음 접근할 때 지연 로딩(lazy load)이 일어나기 때문입니다.",
  );

  // 4b. Index check.
  b.user("고치기 전에 tracking_events 테이블 인덱스가 제대로 걸려 있는지도 확인해 줘.");
  b.tools(null, [
    {
      name: "bash",
      args: { command: "psql \"$DATABASE_URL\" -c \"EXPLAIN ANALYZE SELECT * FROM tracking_events WHERE parcel_id = ANY(ARRAY[4101,4102,4103,4104,4105,4106,4107,4108,4109,4110,4111,4112,4113,4114,4115,4116,4117,4118,4119,4120]) ORDER BY occurred_at\" -c '\\d tracking_events'" },
      result: EXPLAIN_OUTPUT,
    },
  ]);
  b.reply("`parcel_id`에 `ix_tracking_events_parcel_id` 인덱스가 있고, 운송장 20개의 이벤트 1187건을 한 번에 읽어도 5.6ms입니다. 인덱스는 문제가 아니고, 쿼리를 운송장마다 따로 보내는 것이 문제입니다.");

  // 5. Fix N+1.
  b.user("N+1 문제를 고쳐 줘. selectinload 쓰면 될 것 같아.");
  b.tools(null, [
    {
      name: "edit",
      args: {
        path: P("app/routes/parcels.py"),
        oldText: "    parcels = session.scalars(select(Parcel).order_by(Parcel.id).limit(limit).offset(offset)).all()",
        newText: "    query = (\n        select(Parcel)\n        .options(selectinload(Parcel.events))\n        .order_by(Parcel.id)\n        .limit(limit)\n        .offset(offset)\n    )\n    parcels = session.scalars(query).all()",
      },
      result: `Successfully replaced text in ${P("app/routes/parcels.py")}.`,
    },
    {
      name: "edit",
      args: { path: P("app/routes/parcels.py"), oldText: "from sqlalchemy.orm import Session", newText: "from sqlalchemy.orm import Session, selectinload" },
      result: `Successfully replaced text in ${P("app/routes/parcels.py")}.`,
    },
  ]);
  b.tools(null, [
    {
      name: "bash",
      args: { command: ".venv/bin/pytest -q && SQL_ECHO=1 .venv/bin/python -c \"from fastapi.testclient import TestClient; from app.main import app; TestClient(app).get('/parcels?limit=50')\" 2>&1 | grep -c SELECT" },
      result: "...........                                                              [100%]\n11 passed in 0.81s\n2\n",
    },
  ]);
  b.tools(null, [{ name: "bash", args: { command: "curl -s 'localhost:8000/parcels?limit=30' | python -m json.tool" }, result: parcelsJson(30, 3) }]);
  b.reply("`selectinload(Parcel.events)`를 추가했습니다. 이제 목록 한 번에 쿼리가 2번(운송장 목록 1번 + 모든 이벤트를 `IN (...)`으로 1번)만 나갑니다. 테스트 11개 모두 통과하고, 응답 형식도 그대로입니다.");

  // 6. Measure.
  b.user("응답 시간을 다시 측정해 줘. 고치기 전 로그와 비교해서.");
  b.tools(null, [
    {
      name: "bash",
      args: { command: "hey -n 400 -c 8 'http://localhost:8000/parcels?limit=200' | sed -n '1,24p'" },
      result:
        "\nSummary:\n  Total:\t4.1182 secs\n  Slowest:\t0.1417 secs\n  Fastest:\t0.0493 secs\n  Average:\t0.0818 secs\n  Requests/sec:\t97.1294\n  \n  Total data:\t19731200 bytes\n  Size/request:\t49328 bytes\n\n" +
        "Response time histogram:\n  0.049 [1]\t|\n  0.059 [22]\t|■■■■■\n  0.068 [71]\t|■■■■■■■■■■■■■■■■\n  0.077 [113]\t|■■■■■■■■■■■■■■■■■■■■■■■■■\n  0.086 [98]\t|■■■■■■■■■■■■■■■■■■■■■■\n  0.096 [54]\t|■■■■■■■■■■■■\n  0.105 [25]\t|■■■■■■\n  0.114 [10]\t|■■\n  0.123 [4]\t|■\n  0.132 [1]\t|\n  0.142 [1]\t|\n",
    },
  ]);
  b.reply("`limit=200` 기준으로 평균 82ms, 가장 느린 요청도 142ms입니다. 고치기 전 로그에서는 같은 요청이 2~3초였으니 약 30배 빨라졌습니다. 남은 시간은 대부분 JSON 직렬화(요청당 약 49KB)입니다.");

  // 7. More logs to review.
  b.user("에러 로그도 한번 봐 줘. 최근 404가 많은 것 같아.");
  b.tools(null, [{ name: "bash", args: { command: "grep '\" 404 ' logs/access.log | tail -n 40 && grep -c '\" 404 ' logs/access.log" }, result: accessLog(500, 9, false).filter((l) => l.includes('" 404 ')).slice(-40).join("\n") + "\n417\n" }]);
  b.reply("404는 모두 `/parcels/KR…` 단건 조회이고 운송장 번호 형식은 정상입니다. 존재하지 않는 번호를 조회한 경우라 서버 오류는 아닙니다. 전체 요청 중 약 8%로, 사용자가 번호를 잘못 입력하는 비율로 보기에는 다소 높으니 프런트엔드에서 입력 검증(체크 디지트 등)을 검토해 볼 만합니다.");

  // 8. Manual compaction (/compact) with pi's default settings.
  b.compact(() => ({
    history:
      "## Goal\n`parcel-tracker`(FastAPI + SQLAlchemy 2.0 택배 조회 서비스)를 파악하고 실패하는 테스트를 고친다.\n\n" +
      "## Constraints & Preferences\n- 사용자는 한국어로 질문한다. 답변도 한국어로.\n- ETA의 시간대는 마지막 이벤트의 시간대를 따른다.\n\n" +
      "## Progress\n### Done\n- [x] 구조 설명: `app/main.py`(시작 시 `create_all`), `app/models.py`(`Parcel`, `TrackingEvent`, `occurred_at` 순 관계), `app/routes/parcels.py`(`GET /parcels`, `GET /parcels/{tracking_code}`), `app/db.py`(pool_size=10), `app/services/eta.py`\n" +
      "- [x] `estimate_delivery()`의 naive/aware datetime 오류 수정: 마감 비교는 `timetz()`, 다음 날 09:00은 같은 `tzinfo`로 생성; 테스트 11개 통과 (`tests/test_eta.py` 5개 포함)\n\n" +
      "### In Progress\n- (none)\n\n### Blocked\n- (none)\n\n" +
      "## Key Decisions\n- **시간대는 이벤트를 따른다**: 사용자 지시.\n\n" +
      "## Next Steps\n1. 목록 API가 운송장마다 `parcel.events`를 지연 로딩하는지 확인(N+1 의심).\n\n" +
      "## Critical Context\n- 테스트 실행: `.venv/bin/pytest -v`.",
    turnPrefix:
      "## Original Request\n`/parcels` 목록 API가 느리다는 제보의 원인을 로그로 찾아 달라는 요청.\n\n" +
      "## Early Progress\n- `logs/access.log` 마지막 420줄 확인: 목록 요청은 `limit`에 비례해 느리고(`limit=200`이면 2~3초), 단건 조회는 10~25ms.\n\n" +
      "## Context for Suffix\n- 이어서 목록 요청 한 번의 SQL 로그를 확인한다.",
  }));

  // 9. After compaction.
  b.user("변경 사항을 정리해서 커밋 메시지를 작성해 줘.");
  b.tools(null, [{ name: "bash", args: { command: "git diff --stat" }, result: " app/routes/parcels.py | 12 ++++++++++--\n app/services/eta.py   |  5 +++--\n 2 files changed, 14 insertions(+), 4 deletions(-)\n" }]);
  b.reply(
    "두 가지 변경이라 커밋을 나누는 것을 권합니다.\n\n```\nFix ETA next-morning rollover losing the timezone\n\nestimate_delivery() built the 09:00 next-morning value with a naive\ntime, which broke comparisons with event times and dropped tzinfo.\nCompare the drop-off cut-off in the event's local time and keep its tzinfo.\n```\n\n" +
      "```\nLoad tracking events with selectinload in GET /parcels\n\nThe list endpoint lazy-loaded events per parcel (N+1 queries, 51 for\nlimit=50). One extra IN query now loads them all; limit=200 drops from\n2-3 s to about 80 ms.\n```",
  );

  b.user("고마워! 마지막으로 README에 성능 관련 메모를 한 줄 추가해 줘.");
  b.tools(null, [
    {
      name: "bash",
      args: { command: "printf '\\n## Performance\\n\\nList endpoints must eager-load relationships (see `selectinload` in app/routes/parcels.py); lazy loading there costs one query per parcel.\\n' >> README.md && tail -n 4 README.md" },
      result: "\n## Performance\n\nList endpoints must eager-load relationships (see `selectinload` in app/routes/parcels.py); lazy loading there costs one query per parcel.\n",
    },
  ]);
  b.reply("README 끝에 `## Performance` 절을 추가했습니다. 목록 API에서는 관계를 미리 로딩해야 하며, 지연 로딩은 운송장마다 쿼리 한 번이 든다는 내용입니다.");
  return b.toJsonl();
}
