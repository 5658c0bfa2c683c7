import m0000 from "./0000_objects_before_migrations.sql";
import journal from "./meta/_journal.json";

export default { journal, migrations: { m0000 } };
