-- Up Migration
-- A transaction that notifies takes a cluster-wide lock at commit and holds it through its WAL flush (so that
-- notifications queue in commit order): with pg_notify inside es_append, concurrent appends committed one flush at a
-- time and never shared one (issue 14: 8 appends at a time ran no faster than Emmett's store, which does not notify).
-- es_append now only writes; es_append_and_notify commits the append, then notifies in a transaction of its own that
-- writes nothing, so holds the lock for no flush, in the same round trip. A subscriber woken reads a committed append;
-- a notification lost between the two (the connection gone) only waits for the subscribers' polling. Should that
-- second commit fail (a NOTIFY queue full behind a stuck listener), the call fails with the append committed: the
-- caller's retry finds its event ids stored and is answered as then.
CREATE OR REPLACE FUNCTION es_append(p_stream text, p_expected text, p_events jsonb)
RETURNS TABLE (resultado text, revisao bigint, commit_pos text, prepare_pos bigint)
LANGUAGE plpgsql AS $$
DECLARE
  n integer := jsonb_array_length(p_events);
  v_last bigint;
  v_prev bigint;
  v_pos bigint;
BEGIN
  IF EXISTS (SELECT 1 FROM es_events WHERE event_id IN (SELECT (e->>'id')::uuid FROM jsonb_array_elements(p_events) AS e)) THEN
    RETURN QUERY SELECT 'repetido'::text, NULL::bigint, NULL::text, NULL::bigint;
    RETURN;
  END IF;
  -- The upsert locks the stream's row: appends to one stream are serialised, others run in parallel.
  INSERT INTO es_streams AS s (stream_id, revision) VALUES (p_stream, n - 1)
    ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + n
    RETURNING s.revision INTO v_last;
  v_prev := v_last - n;
  IF (p_expected = 'no_stream' AND v_prev >= 0) OR (p_expected NOT IN ('any', 'no_stream') AND v_prev <> p_expected::bigint) THEN
    RAISE EXCEPTION 'wrong_expected_revision' USING DETAIL = CASE WHEN v_prev < 0 THEN 'no_stream' ELSE v_prev::text END;
  END IF;
  WITH gravados AS (
    INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, schema_version, data, metadata)
    SELECT p_stream, v_prev + e.i, (e.ev->>'id')::uuid, e.ev->>'type', (e.ev->>'schemaVersion')::integer, e.ev->'data', e.ev->'metadata'
      FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(ev, i)
     ORDER BY e.i
    RETURNING global_position
  )
  SELECT max(global_position) INTO v_pos FROM gravados;
  RETURN QUERY SELECT 'gravado'::text, v_last, pg_current_xact_id()::text, v_pos;
END
$$;

-- CALL it outside a transaction block (its COMMIT needs that): the pool's autocommit statement is.
CREATE PROCEDURE es_append_and_notify(
  p_stream text, p_expected text, p_events jsonb,
  OUT resultado text, OUT revisao bigint, OUT commit_pos text, OUT prepare_pos bigint
)
LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.resultado, a.revisao, a.commit_pos, a.prepare_pos INTO resultado, revisao, commit_pos, prepare_pos
    FROM es_append(p_stream, p_expected, p_events) AS a;
  COMMIT;
  IF resultado = 'gravado' THEN
    PERFORM pg_notify('es_events_appended', '');
  END IF;
END
$$;

-- Down Migration
DROP PROCEDURE es_append_and_notify(text, text, jsonb);
CREATE OR REPLACE FUNCTION es_append(p_stream text, p_expected text, p_events jsonb)
RETURNS TABLE (resultado text, revisao bigint, commit_pos text, prepare_pos bigint)
LANGUAGE plpgsql AS $$
DECLARE
  n integer := jsonb_array_length(p_events);
  v_last bigint;
  v_prev bigint;
  v_pos bigint;
BEGIN
  IF EXISTS (SELECT 1 FROM es_events WHERE event_id IN (SELECT (e->>'id')::uuid FROM jsonb_array_elements(p_events) AS e)) THEN
    RETURN QUERY SELECT 'repetido'::text, NULL::bigint, NULL::text, NULL::bigint;
    RETURN;
  END IF;
  INSERT INTO es_streams AS s (stream_id, revision) VALUES (p_stream, n - 1)
    ON CONFLICT (stream_id) DO UPDATE SET revision = s.revision + n
    RETURNING s.revision INTO v_last;
  v_prev := v_last - n;
  IF (p_expected = 'no_stream' AND v_prev >= 0) OR (p_expected NOT IN ('any', 'no_stream') AND v_prev <> p_expected::bigint) THEN
    RAISE EXCEPTION 'wrong_expected_revision' USING DETAIL = CASE WHEN v_prev < 0 THEN 'no_stream' ELSE v_prev::text END;
  END IF;
  WITH gravados AS (
    INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, schema_version, data, metadata)
    SELECT p_stream, v_prev + e.i, (e.ev->>'id')::uuid, e.ev->>'type', (e.ev->>'schemaVersion')::integer, e.ev->'data', e.ev->'metadata'
      FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(ev, i)
     ORDER BY e.i
    RETURNING global_position
  )
  SELECT max(global_position) INTO v_pos FROM gravados;
  PERFORM pg_notify('es_events_appended', '');
  RETURN QUERY SELECT 'gravado'::text, v_last, pg_current_xact_id()::text, v_pos;
END
$$;
