-- Up Migration
-- One round trip per append (issue 14): the stream's revision claimed, the expected revision checked, the events
-- inserted and the subscribers notified in one statement. A wrong expected revision raises (so that the claim is
-- undone with the statement); an append whose event ids are already stored writes nothing and answers 'repetido',
-- and the caller reads what was stored.
CREATE FUNCTION es_append(p_stream text, p_expected text, p_events jsonb)
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
  PERFORM pg_notify('es_events_appended', '');
  RETURN QUERY SELECT 'gravado'::text, v_last, pg_current_xact_id()::text, v_pos;
END
$$;

-- Down Migration
DROP FUNCTION es_append(text, text, jsonb);
