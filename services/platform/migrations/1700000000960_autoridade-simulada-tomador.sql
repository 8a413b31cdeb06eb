-- Up Migration
-- The simulated authority keeps each CT-e's taker (toma3 party or toma4: CNPJ, or 000 + CPF): the author the
-- taker's events must carry (610110 prestação do serviço em desacordo, 610111 its cancellation; MOC 4.00 Visão Geral
-- §5.1.5 N19, rejection 755). Null for an MDF-e and for documents authorized before this column.
ALTER TABLE autoridade_simulada_documentos ADD COLUMN tomador text;

-- Down Migration
ALTER TABLE autoridade_simulada_documentos DROP COLUMN tomador;
