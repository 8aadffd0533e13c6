import { SitePage } from './site-chrome.tsx';

/** /integrations: the ways answers and forms leave Easy Form and come back, and how to use each. */
export function IntegrationsPage() {
  return (
    <SitePage
      title="Integrations"
      lead="Easy Form hands your answers to the tools you already use, with no account anywhere else."
    >
      <h2>Webhooks</h2>
      <p>
        Each response can be sent, as it arrives, to an address of yours: a Zapier or Make hook, your own
        server, a chat bot. Open a form&apos;s Settings, enter the endpoint URL under Webhooks and choose Add
        webhook (up to five a form). Send test posts an example so you can check your side.
      </p>
      <p>
        Every delivery is a JSON POST signed with the webhook&apos;s own secret, shown once when you add it:
        the <code>Easyform-Signature</code> header carries a timestamp and an HMAC-SHA256 of the timestamp and
        the body, so your endpoint can check that the response came from your form. Files in a response come
        as links that work for seven days. A delivery that fails is tried again for 24 hours; the Deliveries
        list shows each one and lets you resend it.
      </p>
      <h2>CSV export</h2>
      <p>
        On a form&apos;s responses, Download CSV saves every response (or those of a date range or a search)
        as a spreadsheet file that Excel, Google Sheets, Numbers and Airtable open as they are: one row a
        response, one column a question.
      </p>
      <h2>JSON export and import</h2>
      <p>
        A form&apos;s Actions menu has Export: a JSON file with the form&apos;s questions and settings,
        without its responses. Import form (JSON), on the page where you create forms, makes a new form from
        such a file, on this server or on another Easy Form. Use it to copy a form between instances or to
        keep a form&apos;s design in version control.
      </p>
    </SitePage>
  );
}
