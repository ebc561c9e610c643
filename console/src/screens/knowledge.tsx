export default function Screen() {
  return (
    <section>
      <h1>Knowledge</h1>
    </section>
  );
}
