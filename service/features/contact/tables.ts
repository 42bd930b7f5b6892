/** Messages from contact widgets. Spam (a filled honeypot) is kept, marked, and notifies nobody. */

export interface ContactTables {
  contact_messages: {
    id: string;
    company_id: number;
    widget_key: string;
    name: string;
    email: string;
    subject: string;
    topic: string | null;
    message: string;
    spam: 0 | 1;
    form_issued_at: number;
    /** A form token sends one message. */
    form_nonce: string;
    created_at: number;
  };
}
