-- Up Migration
-- The signed event as the simulated authority received it, byte for byte: a consultation answered by the local
-- authority server carries each registered event in a procEventoCTe / procEventoMDFe (the event as sent and the
-- authority's retEventoCTe / retEventoMDFe), and its signature holds only over the bytes as sent. Null for events
-- registered before this column existed (their consultation then lists them without the procEvento).
ALTER TABLE autoridade_simulada_eventos ADD COLUMN evento_xml text;

-- Down Migration
ALTER TABLE autoridade_simulada_eventos DROP COLUMN evento_xml;
