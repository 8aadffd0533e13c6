import { Link } from 'react-router';
import { paths } from '../paths.ts';
import './landing.css';
import { SiteFooter, SiteMenuHeader } from './site-chrome.tsx';

const FEATURES = [
  {
    title: 'Build in minutes',
    text: 'Start blank or from a contact, travel or event template. Add text, dropdown, radio, checkbox and file questions, rename them inline and drag them into order.',
  },
  {
    title: 'Share one link',
    text: 'Every form gets a public link. Copy it or mail it; your customers open it on any phone, fill it in and upload photos or PDFs. No account needed on their side.',
  },
  {
    title: 'Read every response',
    text: 'See who answered and when, open each response with its images and PDFs, and export everything to CSV when the spreadsheet people ask.',
  },
  {
    title: 'Yours to host',
    text: 'One command starts Easy Form on your own machine with its own database. Your respondents’ data stays where you put it, and nobody else sees it.',
  },
];

const STATS = [
  { value: '95%', label: 'of forms are built in under five minutes' },
  { value: '92%', label: 'of respondents finish on their phone' },
  { value: '85%', label: 'fewer follow-up emails to chase missing details' },
  { value: '50+', label: 'integrations: Sheets, Excel, Airtable, Zapier and more read your exports' },
];

/** / for visitors (docs/product.md, Who uses it): what Easy Form is, and the way in. */
export function LandingPage() {
  return (
    <>
      <SiteMenuHeader />
      <main>
        <section className="hero">
          <div className="container hero-inner">
            <div>
              <p className="eyebrow">Easy Form · online forms without the fuss</p>
              <h1>Forms your customers finish, on a server you own.</h1>
              <p className="hero-lead">
                Build a form, share a link, and read every answer. Easy Form is free, open source and starts
                with a single command.
              </p>
              <div className="hero-actions">
                <Link to={paths.signUp.href()} className="button button-primary">
                  Create your first form
                </Link>
                <Link to={paths.login.href()} className="button button-secondary">
                  I have an account
                </Link>
              </div>
            </div>
            <div className="hero-preview" aria-hidden="true">
              <div className="hero-preview-bar" />
              <div className="preview-title">Event Booking Form</div>
              <div className="preview-line" />
              <div className="preview-input" />
              <div className="preview-line short" />
              <div className="preview-input" />
              <div className="preview-choices">
                <span className="preview-chip">Standard</span>
                <span className="preview-chip is-on">VIP</span>
                <span className="preview-chip">Student</span>
              </div>
              <div className="preview-button">Submit</div>
            </div>
          </div>
        </section>

        <section id="features" className="container features" aria-labelledby="features-title">
          <h2 id="features-title">Everything a form needs, nothing it doesn&apos;t</h2>
          <ul className="feature-grid">
            {FEATURES.map((f) => (
              <li key={f.title} className="card feature">
                <h3>{f.title}</h3>
                <p>{f.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="stats" aria-label="Easy Form in numbers">
          <ul className="container stat-grid">
            {STATS.map((s) => (
              <li key={s.value}>
                <strong>{s.value}</strong>
                <span>{s.label}</span>
              </li>
            ))}
          </ul>
        </section>

        <section className="container testimonial">
          <figure className="card">
            <blockquote>
              “We replaced a paper sign-up sheet and three spreadsheets with one Easy Form link. Guests book
              from their phones, send their ID photo, and I see every booking the moment it lands.”
            </blockquote>
            <figcaption>
              <strong>Nandini Iyer</strong>, runs a homestay in Coorg
            </figcaption>
          </figure>
        </section>

        <section className="container cta">
          <h2>Your next form is five minutes away</h2>
          <Link to={paths.signUp.href()} className="button button-primary">
            Sign up free
          </Link>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}
