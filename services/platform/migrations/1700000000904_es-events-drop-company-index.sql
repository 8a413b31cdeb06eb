-- Up Migration
-- No query reads the log by company (tenants read their read models; the log is read whole, in commit order), and
-- every append paid for this index: a JSON expression evaluated and one more B-tree insert, WAL included, per event.
DROP INDEX es_events_company;

-- Down Migration
CREATE INDEX es_events_company ON es_events ((metadata->>'company_id'), transaction_id, global_position);
