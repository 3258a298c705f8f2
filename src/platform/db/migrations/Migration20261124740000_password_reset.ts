import { Migration } from '@mikro-orm/migrations';

/** E-mail tokens also reset passwords. */
export class Migration20261124740000_password_reset extends Migration {
  override up(): void {
    this.addSql('alter table user_email_tokens drop constraint user_email_tokens_purpose_check;');
    this.addSql(
      `alter table user_email_tokens add constraint user_email_tokens_purpose_check
         check (purpose in ('confirm_email', 'reset_password'));`,
    );
  }

  override down(): void {
    this.addSql("delete from user_email_tokens where purpose = 'reset_password';");
    this.addSql('alter table user_email_tokens drop constraint user_email_tokens_purpose_check;');
    this.addSql(
      "alter table user_email_tokens add constraint user_email_tokens_purpose_check check (purpose in ('confirm_email'));",
    );
  }
}
